#include "nn/planner.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "core/device.h"
#include "core/runtime.h"
#include "nn/device_constants.h"
#include "nn/executor.h"
#include "nn/plan_cache.h"

namespace openacl::nn {

namespace {

std::map<std::string, PlanFn> &planners() {
  static std::map<std::string, PlanFn> m;
  return m;
}

// Ops are prepared through the kernels of device 0's backend, for its AI-core count (every
// device of a runtime runs the configured backend, and all sim devices have the same count);
// before aclInit through the host kernels, for the host's cores. Prepared ops run on any device
// of that backend.
ops::Target prepare_target() {
  try {
    Device &device = Runtime::get().device(0);
    return {&device.backend().kernels(), device.cores().count()};
  } catch (const Error &) {
    return {&ops::host_kernels(), std::max(1u, std::thread::hardware_concurrency())};
  }
}

constexpr uint64_t kWorkspaceAlign = 64;

// The op library's ops whose kernels map element i of each same-shaped input to element i of
// the output (ops/elementwise.cpp's binary and unary row kernels), so they may run in place.
const std::set<std::string, std::less<>> kElementwise = {
    "Add", "Sub", "Mul", "Div", "RealDiv", "Maximum", "Minimum", "Exp",     "Log",
    "Sin", "Cos", "Neg", "Abs", "Sqrt",    "Rsqrt",   "Relu",    "Sigmoid", "Tanh"};

bool same(const ops::TensorDesc &a, const ops::TensorDesc &b) {
  return a.dtype == b.dtype && a.dims == b.dims && a.format == b.format && a.value == b.value &&
         a.channels_last == b.channels_last;
}
bool same(const std::vector<ops::TensorDesc> &a, const std::vector<ops::TensorDesc> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

// The ops this thread prepared last: programs repeat a few shapes, and a prepared op is
// immutable, so a step that matches one (type, descriptors, attrs) shares it, as aclop's
// calls do (api/op/op.cpp).
// `out` receives the op's inferred outputs.
std::shared_ptr<const ops::PreparedOp> prepare_cached(const std::string &type,
                                                      const std::vector<ops::TensorDesc> &in,
                                                      const ops::Attrs &attrs, ops::Target target,
                                                      std::vector<ops::TensorDesc> &out) {
  struct Entry {
    std::string type;
    std::vector<ops::TensorDesc> in, out;
    ops::Attrs attrs;
    ops::Target target;
    std::shared_ptr<const ops::PreparedOp> op;
  };
  constexpr size_t kEntries = 32;
  thread_local std::vector<Entry> cache;
  thread_local size_t next = 0;
  for (const Entry &e : cache) {
    if (e.type == type && e.target.kernels == target.kernels &&
        e.target.threads == target.threads && same(e.in, in) && e.attrs == attrs) {
      out = e.out;
      return e.op;
    }
  }
  out = ops::infer(type, in, attrs);
  std::shared_ptr<const ops::PreparedOp> op =
      ops::prepare(*target.kernels, type, in, out, attrs, target.threads);
  Entry e{type, in, out, attrs, target, op};
  if (cache.size() < kEntries) cache.push_back(std::move(e));
  else cache[next++ % kEntries] = std::move(e);
  return op;
}

ops::TensorDesc make_desc(ops::DType dtype, std::vector<int64_t> dims) {
  ops::TensorDesc d;
  d.dtype = dtype;
  d.dims = std::move(dims);
  return d;
}

// Phase 1's result: a registered executor of `plan`, its slot addresses filled by `address`.
template <class F>
aclOpExecutor *executor_for(std::shared_ptr<const Plan> plan, size_t slots, F &&address,
                            uint64_t *workspace_size) {
  ExecutorPtr e = spare_executor();
  *workspace_size = plan->workspace;
  e->plan = std::move(plan);
  e->addresses.reserve(slots);
  for (size_t i = 0; i < slots; ++i) e->addresses.push_back(address(i));
  return adopt_executor(std::move(e));
}

}  // namespace

Registrar::Registrar(std::initializer_list<PlanEntry> entries) {
  for (const auto &e : entries) planners()[e.op] = e.plan;
}

Planner::Planner(std::string op, std::vector<Arg> args)
    : args_(std::move(args)), plan_(std::make_shared<Plan>()), target_(prepare_target()) {
  static std::atomic<uint64_t> serials{0};
  plan_->name = std::move(op);
  plan_->serial = serials.fetch_add(1, std::memory_order_relaxed) + 1;
}

const Arg &Planner::arg(size_t i) const {
  if (i >= args_.size())
    fail(Errc::internal, plan_->name + ": planner reads argument " + std::to_string(i) + " of " +
                             std::to_string(args_.size()));
  return args_[i];
}

template <class T>
const T *Planner::object(size_t i, const char *name, bool required) const {
  const auto *p = std::get_if<const T *>(&arg(i));
  if (p == nullptr)
    fail(Errc::internal,
         plan_->name + ": argument " + std::to_string(i) + " (" + name + ") has another type");
  if (*p == nullptr && !required) return nullptr;
  return &checked(*p, name);
}

const aclTensor &Planner::tensor(size_t i, const char *name) const {
  return *object<aclTensor>(i, name, true);
}
const aclTensor *Planner::tensor_opt(size_t i, const char *name) const {
  return object<aclTensor>(i, name, false);
}
const aclScalar &Planner::scalar(size_t i, const char *name) const {
  return *object<aclScalar>(i, name, true);
}
const aclScalar *Planner::scalar_opt(size_t i, const char *name) const {
  return object<aclScalar>(i, name, false);
}
const aclIntArray &Planner::int_array(size_t i, const char *name) const {
  return *object<aclIntArray>(i, name, true);
}
const aclTensorList &Planner::tensor_list(size_t i, const char *name) const {
  return *object<aclTensorList>(i, name, true);
}
const aclIntArray *Planner::int_array_opt(size_t i, const char *name) const {
  return object<aclIntArray>(i, name, false);
}

const char *Planner::text(size_t i, const char *name) const {
  const auto *v = std::get_if<const char *>(&arg(i));
  if (v == nullptr)
    fail(Errc::internal, plan_->name + ": argument " + std::to_string(i) + " is not a string");
  if (*v == nullptr) fail(Errc::null_pointer, std::string(name) + " is NULL");
  return *v;
}

int64_t Planner::i64(size_t i) const {
  if (const auto *v = std::get_if<int64_t>(&arg(i))) return *v;
  fail(Errc::internal, plan_->name + ": argument " + std::to_string(i) + " is not an integer");
}
double Planner::f64(size_t i) const {
  if (const auto *v = std::get_if<double>(&arg(i))) return *v;
  fail(Errc::internal, plan_->name + ": argument " + std::to_string(i) + " is not a double");
}
bool Planner::flag(size_t i) const {
  if (const auto *v = std::get_if<bool>(&arg(i))) return *v;
  fail(Errc::internal, plan_->name + ": argument " + std::to_string(i) + " is not a bool");
}

void Planner::invalid(const std::string &what) const {
  fail(Errc::invalid_argument, plan_->name + ": " + what);
}

void Planner::dtype_in(const aclTensor &t, const char *name,
                       std::initializer_list<ops::DType> ok) const {
  if (std::find(ok.begin(), ok.end(), t.dtype) != ok.end()) return;
  std::string list;
  auto type_name = [](ops::DType d) { return d == kInt4 ? "int4" : ops::dtype_name(d); };
  for (auto d : ok) list += std::string(list.empty() ? "" : ", ") + type_name(d);
  invalid(std::string(name) + " has dtype " + type_name(t.dtype) + "; supported: " + list);
}

void Planner::same_shape(const aclTensor &t, const char *name, const std::vector<int64_t> &dims,
                         const char *whose) const {
  if (t.view.dims != dims)
    invalid(std::string(name) + " has shape " + ops::dims_str(t.view.dims) + " but " + whose +
            " is " + ops::dims_str(dims));
}

size_t Planner::add_value(Value v) {
  plan_->values.push_back(std::move(v));
  return plan_->values.size() - 1;
}

size_t Planner::add_slot(const aclTensor &t, const char *name, bool read, bool write) {
  const auto bits = static_cast<int64_t>(element_bits(t.dtype));
  plan_->slots.push_back(
      {name, t.view.offset * bits / 8, (t.view.extent() * bits + 7) / 8, read, write});
  addresses_.push_back(t.data);
  slot_tensors_.push_back(&t);
  const size_t slot = plan_->slots.size() - 1;
  return add_value({make_desc(t.dtype, t.view.dims), Home::slot, slot, t.view.strides,
                    t.view.offset, t.view.contiguous()});
}

size_t Planner::input(const aclTensor &t, const char *name) {
  const size_t v = add_slot(t, name, true, false);
  plan_->inputs.push_back({plan_->values[v].index});
  return v;
}

std::vector<size_t> Planner::input_list(const aclTensorList &l, const char *name) {
  std::vector<size_t> values, slots;
  for (size_t i = 0; i < l.tensors.size(); ++i) {
    const std::string what = std::string(name) + "[" + std::to_string(i) + "]";
    const aclTensor &t = checked(static_cast<const aclTensor *>(l.tensors[i]), what.c_str());
    values.push_back(add_slot(t, what.c_str(), true, false));
    slots.push_back(plan_->values.back().index);
  }
  plan_->inputs.push_back(slots);
  return values;
}

size_t Planner::output(const aclTensor &t, const char *name) {
  if (t.view.overlaps())
    invalid(std::string(name) + " is a view whose elements overlap (" + view_str(t) +
            "); an output must not");
  const size_t v = add_slot(t, name, false, true);
  plan_->outputs.push_back({plan_->values[v].index});
  return v;
}

size_t Planner::ref(const aclTensor &t, const char *name) {
  if (t.view.overlaps())
    invalid(std::string(name) + " is a view whose elements overlap (" + view_str(t) +
            "); an output must not");
  const size_t v = add_slot(t, name, true, true);
  plan_->inputs.push_back({plan_->values[v].index});
  plan_->outputs.push_back({plan_->values[v].index});
  return v;
}

size_t Planner::temp(ops::DType dtype, std::vector<int64_t> dims) {
  if (element_size(dtype) == 0)
    invalid("int4 tensors are taken only as WeightQuantBatchMatmulV2 weights");
  ops::TensorDesc d = make_desc(dtype, std::move(dims));
  const uint64_t begin =
      (plan_->workspace + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
  last_temp_begin_ = plan_->workspace;
  plan_->workspace = begin + d.byte_size();
  const auto es = static_cast<int64_t>(element_size(dtype));
  auto strides = dense_strides(d.dims);
  last_temp_ = add_value({std::move(d), Home::workspace, 0, std::move(strides),
                          static_cast<int64_t>(begin) / es, true});
  return last_temp_;
}

size_t Planner::constant(ops::DType dtype, std::vector<int64_t> dims, std::vector<uint8_t> bytes) {
  ops::TensorDesc d = make_desc(dtype, std::move(dims));
  d.value = bytes;
  plan_->constants.push_back(std::move(bytes));
  auto strides = dense_strides(d.dims);
  return add_value(
      {std::move(d), Home::constant, plan_->constants.size() - 1, std::move(strides), 0, true});
}

size_t Planner::scalar_value(const aclScalar &s, ops::DType dtype) {
  return constant(dtype, {}, scalar_bytes(s, dtype));
}

size_t Planner::view(size_t v, std::vector<int64_t> dims, std::vector<int64_t> strides,
                     int64_t offset) {
  Value out = plan_->values[v];
  View check{dims, strides, 0};
  out.desc.dims = std::move(dims);
  out.desc.value.clear();
  out.strides = std::move(strides);
  out.offset += offset;
  out.contiguous = check.contiguous();
  return add_value(std::move(out));
}

size_t Planner::reshape(size_t v, std::vector<int64_t> dims) {
  const Value &from = plan_->values[v];
  ops::TensorDesc d = make_desc(from.desc.dtype, dims);
  if (!from.contiguous || d.element_count() != from.desc.element_count())
    fail(Errc::internal, plan_->name + ": reshape of a strided value or to another element count");
  auto strides = dense_strides(dims);
  Value out = from;
  out.desc.dims = std::move(dims);
  out.strides = std::move(strides);
  return add_value(std::move(out));
}

size_t Planner::dense(size_t v) {
  if (plan_->values[v].contiguous) return v;
  const size_t t = temp(dtype(v), dims(v));
  copy(v, t);
  return t;
}

size_t Planner::cast(size_t v, ops::DType dtype) {
  if (this->dtype(v) == dtype) return v;
  return op1("Cast", {v}, {{"dst_type", dtype}});
}

std::vector<size_t> Planner::op(const std::string &type, const std::vector<size_t> &inputs,
                                const ops::Attrs &attrs) {
  Step step;
  std::vector<ops::TensorDesc> in;
  for (size_t v : inputs) {
    if (element_size(dtype(v)) == 0)
      invalid("int4 tensors are taken only as WeightQuantBatchMatmulV2 weights");
    step.in.push_back(dense(v));
    in.push_back(plan_->values[step.in.back()].desc);
  }
  std::vector<ops::TensorDesc> out;
  std::shared_ptr<const ops::PreparedOp> prepared = prepare_cached(type, in, attrs, target_, out);
  bool empty = false;
  for (const auto &d : out) {
    step.out.push_back(temp(d.dtype, d.dims));
    empty = empty || d.element_count() == 0;
  }
  step.op = std::move(prepared);
  step.elementwise = kElementwise.contains(type);
  std::vector<size_t> results = step.out;
  if (!empty) plan_->steps.push_back(std::move(step));  // an empty result needs no work
  return results;
}

void Planner::copy(size_t src, size_t dst) {
  const Value &s = plan_->values[src], &d = plan_->values[dst];
  if (s.desc.dims != d.desc.dims || s.desc.dtype != d.desc.dtype)
    fail(Errc::internal, plan_->name + ": copy between " + ops::dims_str(s.desc.dims) + " and " +
                             ops::dims_str(d.desc.dims));
  if (element_size(d.desc.dtype) == 0)
    invalid("int4 tensors are taken only as WeightQuantBatchMatmulV2 weights");
  if (d.desc.element_count() == 0) return;
  Step step;
  step.kind = Step::Kind::copy;
  step.in = {src};
  step.out = {dst};
  plan_->steps.push_back(std::move(step));
}

void Planner::kernel(std::shared_ptr<const StridedKernel> k, std::vector<size_t> inputs,
                     std::vector<size_t> outputs) {
  Step step;
  step.kind = Step::Kind::kernel;
  step.kernel = std::move(k);
  step.in = std::move(inputs);
  step.out = std::move(outputs);
  plan_->steps.push_back(std::move(step));
}

size_t Planner::unpack_int4(size_t v) {
  const size_t out = temp(ops::DType::i8, dims(v));
  if (plan_->values[out].desc.element_count() == 0) return out;
  Step step;
  step.kind = Step::Kind::unpack_int4;
  step.in = {v};
  step.out = {out};
  plan_->steps.push_back(std::move(step));
  return out;
}

size_t Planner::int4_bytes(size_t v) {
  Value out = plan_->values[v];
  auto &dims = out.desc.dims;
  auto &strides = out.strides;
  if (dims.empty() || dims.back() % 2 != 0 || (dims.back() > 1 && strides.back() != 1) ||
      out.offset % 2 != 0)
    return SIZE_MAX;
  for (size_t d = 0; d + 1 < dims.size(); ++d) {
    if (strides[d] % 2 != 0) return SIZE_MAX;
    strides[d] /= 2;
  }
  dims.back() /= 2;
  strides.back() = 1;
  out.offset /= 2;
  out.desc = make_desc(ops::DType::u8, dims);
  out.contiguous = View{dims, strides, 0}.contiguous();
  return add_value(std::move(out));
}

void Planner::index_copy(size_t src, size_t index, size_t dst, int64_t axis) {
  if (plan_->values[index].desc.element_count() == 0) return;
  Step step;
  step.kind = Step::Kind::index_copy;
  step.in = {src, dense(index)};
  step.out = {dst};
  step.axis = axis;
  plan_->steps.push_back(std::move(step));
}

void Planner::store(size_t v, size_t out, bool broadcast) {
  v = cast(v, dtype(out));
  const auto &od = dims(out);
  if (dims(v) != od) {
    if (!broadcast)
      invalid("the result has shape " + ops::dims_str(dims(v)) + " but out has shape " +
              ops::dims_str(od));
    // A broadcast is a copy whose source repeats: stride 0 over the broadcast dims.
    const Value &from = plan_->values[v];
    std::vector<int64_t> strides(od.size(), 0);
    const size_t lead = od.size() - from.desc.dims.size();
    for (size_t i = 0; i < from.desc.dims.size(); ++i)
      if (from.desc.dims[i] != 1) strides[lead + i] = from.strides[i];
    v = view(v, od, std::move(strides), 0);
  }
  // A dense output takes the last step's result directly, unless that step reads the output's
  // own memory (an in-place op), which a kernel may not expect. An elementwise kernel reads
  // element i before it writes element i, so it may read the output as it is (the same value).
  const Value &o = plan_->values[out];
  if (o.contiguous && !plan_->steps.empty()) {
    Step &last = plan_->steps.back();
    const bool produced = last.kind == Step::Kind::op &&
                          std::find(last.out.begin(), last.out.end(), v) != last.out.end();
    const bool elementwise = produced && last.elementwise;
    bool reads_out = false;
    for (size_t in : last.in) {
      const Value &iv = plan_->values[in];
      reads_out = reads_out ||
                  (iv.home == Home::slot && iv.index == o.index && !(elementwise && in == out));
    }
    if (produced && !reads_out && plan_->values[v].desc.dims == o.desc.dims) {
      *std::find(last.out.begin(), last.out.end(), v) = out;
      if (v == last_temp_) {
        plan_->workspace = last_temp_begin_;
        last_temp_ = SIZE_MAX;
      }
      return;
    }
  }
  copy(v, out);
}

aclOpExecutor *Planner::finish(uint64_t *workspace_size, const std::string_view *key) {
  place_constants(*plan_);
  plan_->at_call = runs_at_call(*plan_);
  if (key != nullptr) {
    // Each slot's tensor, found among the arguments (a planner that made a tensor of its own
    // leaves the plan out of the cache).
    CachedPlan kept{plan_, {}};
    for (const aclTensor *t : slot_tensors_) {
      std::optional<SlotSource> found;
      for (uint32_t i = 0; i < args_.size() && !found; ++i) {
        if (const auto *a = std::get_if<const aclTensor *>(&args_[i]); a != nullptr && *a == t)
          found = SlotSource{i, 0};
        if (const auto *l = std::get_if<const aclTensorList *>(&args_[i]);
            l != nullptr && *l != nullptr)
          for (uint32_t j = 0; j < (*l)->tensors.size() && !found; ++j)
            if ((*l)->tensors[j] == t) found = SlotSource{i, j};
      }
      if (!found) break;
      kept.sources.push_back(*found);
    }
    if (kept.sources.size() == slot_tensors_.size()) keep_plan(*key, std::move(kept));
  }
  return executor_for(
      plan_, addresses_.size(), [&](size_t i) { return addresses_[i]; }, workspace_size);
}

void plan(const char *op, std::span<const Arg> args, uint64_t *workspace_size,
          aclOpExecutor **executor) {
  if (workspace_size == nullptr) fail(Errc::null_pointer, "workspaceSize is NULL");
  if (executor == nullptr) fail(Errc::null_pointer, "executor is NULL");
  // The cache first: an operator called again as before is answered without the planners'
  // look-up (a std::string made and compared a call).
  std::string_view key;
  const bool keyed = plan_key(op, args, key);
  if (keyed) {
    if (const CachedPlan *c = find_plan(key)) {
      *executor = executor_for(
          c->plan, c->sources.size(), [&](size_t i) { return source_address(args, c->sources[i]); },
          workspace_size);
      return;
    }
  }
  auto it = planners().find(op);
  // Declared for ggml's sake (docs/aclnn.md lists them) but not computed yet: say so plainly.
  if (it == planners().end())
    fail(Errc::internal,
         std::string(op) + " is not implemented in openacl yet (declared only; see docs/aclnn.md)");
  Planner p(op, std::vector<Arg>(args.begin(), args.end()));
  it->second(p);
  *executor = p.finish(workspace_size, keyed ? &key : nullptr);
}

std::vector<int64_t> broadcast_shapes(const Planner &p, const std::vector<int64_t> &a,
                                      const std::vector<int64_t> &b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    const int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (x != y && x != 1 && y != 1)
      p.invalid("shapes " + ops::dims_str(a) + " and " + ops::dims_str(b) + " do not broadcast");
    out[i] = x == 1 ? y : x;
  }
  return out;
}

bool is_float(ops::DType t) {
  return t == ops::DType::f32 || t == ops::DType::f16 || t == ops::DType::bf16 ||
         t == ops::DType::f64;
}

ops::DType promote(ops::DType a, ops::DType b) {
  using D = ops::DType;
  if (a == b) return a;
  if (is_float(a) != is_float(b)) return is_float(a) ? a : b;
  if (is_float(a)) {
    if (a == D::f64 || b == D::f64) return D::f64;
    return D::f32;  // f16 with bf16, or either with f32
  }
  if (a == D::boolean) return b;
  if (b == D::boolean) return a;
  const size_t sa = element_size(a), sb = element_size(b);
  if ((a == D::u8 && b == D::i8) || (a == D::i8 && b == D::u8)) return D::i16;
  return sa >= sb ? a : b;
}

}  // namespace openacl::nn

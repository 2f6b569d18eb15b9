#include "model/plan.h"

#include <algorithm>
#include <limits>
#include <map>

#include "core/clock.h"
#include "core/context.h"
#include "core/device.h"
#include "model/layout.h"
#include "model/lowering.h"
#include "model/optimize.h"

namespace openacl::model {
namespace {

constexpr size_t kAlign = 64;
// Constants up to this size are passed to the op library as descriptor values (shape-like
// inputs are read from there at prepare time); weights are not copied.
constexpr size_t kValueLimit = 64 * 1024;

size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

class SerialCores final : public backend::AiCores {
 public:
  unsigned count() const override { return 1; }
  void parallel_for(size_t n, const std::function<void(size_t)> &body) override {
    for (size_t i = 0; i < n; ++i) body(i);
  }
};

ops::TensorDesc omitted_desc() { return {ops::DType::undefined, {}, ops::Format::undefined, {}}; }

}  // namespace

backend::AiCores &host_cores() {
  static SerialCores cores;
  return cores;
}

// Lowers the graph's nodes in order; see plan.h. In fold-only mode (load time) it lowers just
// the nodes whose inputs are all constants and keeps the others as they are.
class PlanBuilder final : public LoweringContext {
 public:
  // target: the kernels the steps' ops are prepared through (those of the device's backend)
  // and the AI-core count they are prepared for. Folded ops run on the host's kernels.
  PlanBuilder(const Graph &g, bool fold_only, ops::Target target)
      : g_(g),
        fold_only_(fold_only),
        target_(target),
        values_(g.values),
        view_of_(g.values.size(), -1) {}

  struct Step {
    std::unique_ptr<ops::PreparedOp> op;
    std::string type;
    ops::Attrs attrs;
    std::string label;
    std::string node;  // the ONNX node's name
    std::vector<int> in, out;
    std::vector<ops::TensorDesc> in_descs, out_descs;
  };

  // Returns the nodes kept (fold-only mode).
  std::vector<Node> run() {
    std::vector<Node> kept;
    for (const Node &n : g_.nodes) {
      if (fold_only_ && !all_constant(n.inputs)) {
        kept.push_back(n);
        continue;
      }
      node_ = &n;
      try {
        lower(n, *this);
      } catch (const Error &e) {
        Errc code = e.code();
        if (fold_only_ && code == Errc::model_input_not_match) code = Errc::parse_model;
        throw Error(code, e.what());
      }
      for (int o : n.outputs)
        if (o >= 0 && values_[o].desc.dtype == ops::DType::undefined)
          fail(Errc::internal,
               where() + ": output '" + values_[o].name + "' was not defined by its lowering");
    }
    return kept;
  }

  // LoweringContext
  int64_t opset() const override { return g_.opset; }
  ops::TensorDesc desc(int v) const override {
    if (v < 0) fail(Errc::parse_model, where() + ": a required input is missing");
    return values_[v].desc;
  }
  const HostTensor *constant(int v) const override {
    return v < 0 ? nullptr : values_[v].constant.get();
  }
  int temporary() override {
    values_.push_back(
        {(node_ ? node_->name : std::string("model")) + ":tmp" + std::to_string(values_.size()),
         omitted_desc(), nullptr});
    view_of_.push_back(-1);
    return static_cast<int>(values_.size() - 1);
  }
  int constant_value(std::shared_ptr<const HostTensor> t) override {
    int v = temporary();
    define_constant(v, std::move(t));
    return v;
  }
  void define_constant(int out, std::shared_ptr<const HostTensor> t) override {
    values_[out].desc = t->desc;
    values_[out].constant = std::move(t);
  }
  void view(int in, int out, std::vector<int64_t> dims) override {
    const ops::TensorDesc src = desc(in);
    ops::TensorDesc d{src.dtype, std::move(dims), ops::Format::nd, {}};
    if (d.dims.size() == 4 && src.dims.size() == 4) d.format = src.format;
    if (d.element_count() != src.element_count())
      fail(Errc::model_input_not_match, where() + ": cannot view " +
                                            std::to_string(src.element_count()) + " elements as " +
                                            std::to_string(d.element_count()));
    if (const HostTensor *c = constant(in)) {
      auto t = std::make_shared<HostTensor>(*c);
      t->desc = d;
      return define_constant(out, std::move(t));
    }
    values_[out].desc = std::move(d);
    view_of_[out] = in;
  }
  void op(const std::string &type, const std::vector<int> &inputs, const std::vector<int> &outputs,
          ops::Attrs attrs) override {
    const std::string label = where() + " -> " + type;
    std::vector<ops::TensorDesc> ins;
    for (int v : inputs) ins.push_back(v < 0 ? omitted_desc() : value_desc(v));
    std::vector<int> out_ids = outputs;
    std::vector<ops::TensorDesc> outs;
    std::unique_ptr<ops::PreparedOp> prepared;
    const bool fold = all_constant(inputs);
    try {
      outs = ops::infer(type, ins, attrs);
      if (outs.size() < out_ids.size())
        fail(Errc::internal, "the op library gives " + std::to_string(outs.size()) + " outputs");
      for (auto &o : outs) o.value.clear();
      outs.resize(std::max(outs.size(), out_ids.size()));
      while (out_ids.size() < outs.size()) out_ids.push_back(temporary());
      for (size_t k = 0; k < out_ids.size(); ++k)
        if (out_ids[k] < 0) out_ids[k] = temporary();
      prepared = ops::prepare(fold ? ops::host_kernels() : *target_.kernels, type, ins, outs, attrs,
                              target_.threads);
    } catch (const Error &e) {
      Errc code = e.code();
      if (code == Errc::op_type_not_match || code == Errc::unsupported_data_type)
        code = Errc::model_unsupported_op;
      else if (code != Errc::model_unsupported_op && code != Errc::internal)
        code = Errc::model_input_not_match;
      fail(code, label + ": " + e.what());
    }
    for (size_t k = 0; k < out_ids.size(); ++k) values_[out_ids[k]].desc = outs[k];

    if (fold) {  // constant folding, on the host
      std::vector<ops::Tensor> in_t, out_t;
      for (size_t k = 0; k < inputs.size(); ++k) {
        const HostTensor *c = constant(inputs[k]);
        in_t.push_back(
            {ins[k], c ? const_cast<uint8_t *>(c->data.data()) : nullptr, c ? c->data.size() : 0});
      }
      std::vector<std::shared_ptr<HostTensor>> results;
      for (auto &d : outs) {
        auto t = std::make_shared<HostTensor>();
        t->desc = d;
        t->data.assign(d.byte_size(), 0);
        out_t.push_back({d, t->data.data(), t->data.size()});
        results.push_back(std::move(t));
      }
      try {
        prepared->run(in_t, out_t, host_cores());
      } catch (const Error &e) {
        fail(fold_only_ ? Errc::parse_model : Errc::model_input_not_match,
             label + ": folding a constant failed: " + e.what());
      }
      for (size_t k = 0; k < out_ids.size(); ++k) define_constant(out_ids[k], results[k]);
      return;
    }
    if (fold_only_) fail(Errc::internal, label + ": a non-constant op while folding");
    steps_.push_back({std::move(prepared), type, std::move(attrs), label,
                      node_ ? node_->name : std::string("model"), inputs, out_ids, std::move(ins),
                      std::move(outs)});
  }

  int root(int v) const {
    while (v >= 0 && view_of_[v] >= 0) v = view_of_[v];
    return v;
  }

  // Stores the intermediate tensors of conv chains channels-last (layout.h) and prepares
  // again the steps that changes.
  void choose_layouts(const std::vector<int> &graph_io) {
    const size_t nv = values_.size();
    std::vector<bool> candidate(nv, true);
    for (size_t v = 0; v < nv; ++v) {
      if (view_of_[v] < 0) continue;
      candidate[v] = false;
      candidate[root(static_cast<int>(v))] = false;
    }
    for (int v : graph_io) candidate[root(v)] = false;
    std::vector<ops::TensorDesc> descs;
    for (size_t v = 0; v < nv; ++v) {
      const ops::TensorDesc &d = values_[v].desc;
      descs.push_back({d.dtype, d.dims, d.format, {}});
      const bool spatial = d.dims.size() == 4 && d.dims[1] > 1 && d.dims[2] * d.dims[3] > 1;
      if (values_[v].constant || d.dtype != ops::DType::f32 || !spatial) candidate[v] = false;
    }
    std::vector<LayoutStep> ls;
    for (const Step &st : steps_) ls.push_back({&st.type, st.in, st.out, &st.attrs});
    const std::vector<bool> cl = choose_channels_last(ls, descs, candidate);
    for (size_t k = 0; k < steps_.size(); ++k) {
      Step &st = steps_[k];
      if (!restate_step(st.type, st.attrs, st.in_descs, st.out_descs, ls[k], cl)) continue;
      try {
        st.op = ops::prepare(*target_.kernels, st.type, st.in_descs, st.out_descs, st.attrs,
                             target_.threads);
      } catch (const Error &e) {
        fail(Errc::internal,
             st.label + ": preparing it for channels-last tensors failed: " + e.what());
      }
    }
  }

  const Graph &g_;
  bool fold_only_;
  ops::Target target_;
  std::vector<Value> values_;
  std::vector<int> view_of_;
  std::vector<Step> steps_;
  const Node *node_ = nullptr;

 private:
  std::string where() const {
    return node_ ? "node '" + node_->name + "' (" + node_->op + ")" : "model";
  }
  bool all_constant(const std::vector<int> &inputs) const {
    for (int v : inputs)
      if (v >= 0 && !values_[v].constant) return false;
    return true;
  }
  ops::TensorDesc value_desc(int v) const {
    ops::TensorDesc d = values_[v].desc;
    d.value.clear();
    if (const HostTensor *c = constant(v); c && c->data.size() <= kValueLimit) d.value = c->data;
    return d;
  }
};

Graph fold_constants(const Graph &graph) {
  PlanBuilder b(graph, true, {&ops::host_kernels(), 1});
  std::vector<Node> kept = b.run();
  Graph out;
  out.name = graph.name;
  out.opset = graph.opset;
  out.conversion = graph.conversion;
  out.values = std::move(b.values_);
  out.inputs = graph.inputs;
  out.outputs = graph.outputs;
  out.nodes = std::move(kept);
  remove_dead_nodes(out);
  return out;
}

// ---- Plan ---------------------------------------------------------------------------------

Plan::Plan(const Graph &graph, const std::unordered_map<int, const void *> &weights,
           std::vector<std::vector<int64_t>> input_dims, Device *device,
           std::shared_ptr<const Context> owner)
    : input_dims_(std::move(input_dims)), device_(device), owner_(std::move(owner)) {
  // Without a device the plan is only sized (aclmdlQuerySize), which the host's kernels do.
  PlanBuilder b(graph, false,
                device ? ops::Target{&device->backend().kernels(), device->cores().count()}
                       : ops::Target{&ops::host_kernels(), 1});
  if (input_dims_.size() != graph.inputs.size())
    fail(Errc::model_input_not_match, "the model has " + std::to_string(graph.inputs.size()) +
                                          " inputs, got shapes for " +
                                          std::to_string(input_dims_.size()));
  std::map<int, size_t> input_index;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    Value &v = b.values_[graph.inputs[i]];
    const auto &declared = v.desc.dims;
    const auto &dims = input_dims_[i];
    bool fits = declared.size() == dims.size();
    for (size_t k = 0; fits && k < dims.size(); ++k)
      fits = dims[k] >= 0 && (declared[k] < 0 || declared[k] == dims[k]);
    if (!fits) {
      std::string want, got;
      for (auto d : declared)
        want += (want.empty() ? "" : "x") + (d < 0 ? std::string("?") : std::to_string(d));
      for (auto d : dims) got += (got.empty() ? "" : "x") + std::to_string(d);
      fail(Errc::model_input_not_match, "input " + std::to_string(i) + " ('" + v.name +
                                            "') has shape [" + want + "]; the shape given is [" +
                                            got + "]");
    }
    v.desc.dims = dims;
    input_descs_.push_back(v.desc);
    input_index[graph.inputs[i]] = i;
  }
  b.run();
  std::vector<int> io = graph.inputs;
  io.insert(io.end(), graph.outputs.begin(), graph.outputs.end());
  b.choose_layouts(io);

  const size_t nv = b.values_.size();
  const size_t ns = b.steps_.size();
  constexpr size_t kForever = std::numeric_limits<size_t>::max();
  std::vector<size_t> def(nv, kForever), last(nv, 0);
  for (size_t s = 0; s < ns; ++s) {
    for (int v : b.steps_[s].out) def[b.root(v)] = std::min(def[b.root(v)], s);
    for (int v : b.steps_[s].in)
      if (v >= 0) last[b.root(v)] = std::max(last[b.root(v)], s);
  }

  std::vector<Binding> bind(nv);
  // Constants: the load-time weights, else this plan's own device copy.
  std::vector<std::pair<int, size_t>> own_constants;
  auto bind_constant = [&](int r) {
    if (bind[r].kind != Binding::Kind::none) return;
    bind[r].kind = Binding::Kind::constant;
    if (auto it = weights.find(r); it != weights.end()) {
      bind[r].ptr = it->second;
    } else {
      bind[r].offset = constant_bytes_;
      constant_bytes_ += align_up(b.values_[r].constant->data.size());
      own_constants.push_back({r, bind[r].offset});
    }
  };
  for (auto &[v, i] : input_index) bind[v] = {Binding::Kind::input, 0, nullptr, i};

  for (size_t j = 0; j < graph.outputs.size(); ++j) {
    const int v = graph.outputs[j], r = b.root(v);
    output_descs_.push_back(b.values_[v].desc);
    if (!b.values_[r].constant && def[r] != kForever && bind[r].kind == Binding::Kind::none) {
      bind[r] = {Binding::Kind::output, 0, nullptr, j};
    } else {
      if (b.values_[r].constant) bind_constant(r);
      last[r] = kForever;
      copies_.push_back({Binding{}, j, b.values_[v].desc.byte_size()});
      copies_.back().from.index = static_cast<size_t>(r);  // resolved below
    }
  }
  for (const auto &st : b.steps_)
    for (int v : st.in)
      if (v >= 0 && b.values_[b.root(v)].constant) bind_constant(b.root(v));

  // Workspace: greedy by size, each tensor at the lowest offset free during its lifetime.
  struct Item {
    int r;
    size_t size, from, to, offset;
  };
  std::vector<Item> items;
  for (size_t r = 0; r < nv; ++r)
    if (def[r] != kForever && bind[r].kind == Binding::Kind::none)
      items.push_back({static_cast<int>(r), align_up(b.values_[r].desc.byte_size()), def[r],
                       std::max(last[r], def[r]), 0});
  std::sort(items.begin(), items.end(), [](const Item &a, const Item &c) {
    return a.size != c.size ? a.size > c.size : a.from < c.from;
  });
  std::vector<const Item *> placed;
  for (Item &it : items) {
    std::vector<std::pair<size_t, size_t>> busy;
    for (const Item *p : placed)
      if (p->from <= it.to && it.from <= p->to) busy.push_back({p->offset, p->offset + p->size});
    std::sort(busy.begin(), busy.end());
    size_t offset = 0;
    for (auto &[lo, hi] : busy) {
      if (offset + it.size <= lo) break;
      offset = std::max(offset, hi);
    }
    it.offset = offset;
    workspace_bytes_ = std::max(workspace_bytes_, offset + it.size);
    bind[it.r] = {Binding::Kind::workspace, offset, nullptr, 0};
    placed.push_back(&it);
  }

  if (device_ && constant_bytes_) {
    constants_ = device_->allocate(constant_bytes_);
    for (auto &[r, off] : own_constants) {
      const auto &data = b.values_[r].constant->data;
      device_->backend().copy(static_cast<uint8_t *>(constants_) + off, data.data(), data.size());
    }
  }
  for (auto &[r, off] : own_constants) bind[r].ptr = static_cast<uint8_t *>(constants_) + off;

  for (auto &c : copies_) c.from = bind[c.from.index];
  for (auto &st : b.steps_) {
    PlanStep ps;
    ps.op = std::move(st.op);
    ps.label = std::move(st.label);
    ps.type = st.type;
    ps.node = std::move(st.node);
    for (size_t k = 0; k < st.in.size(); ++k) {
      ops::TensorDesc d = std::move(st.in_descs[k]);
      d.value.clear();
      const size_t bytes = d.dtype == ops::DType::undefined ? 0 : d.byte_size();
      ps.inputs.push_back({std::move(d), nullptr, bytes});
      ps.in_bind.push_back(st.in[k] < 0 ? Binding{} : bind[b.root(st.in[k])]);
      if (ps.in_bind.back().kind == Binding::Kind::constant && device_)
        ps.op->bind_constant(k, ps.in_bind.back().ptr, ps.inputs.back().bytes, device_->backend());
    }
    for (size_t k = 0; k < st.out.size(); ++k) {
      const size_t bytes = st.out_descs[k].byte_size();
      ps.outputs.push_back({std::move(st.out_descs[k]), nullptr, bytes});
      ps.out_bind.push_back(bind[b.root(st.out[k])]);
    }
    steps_.push_back(std::move(ps));
  }
}

Plan::~Plan() {
  pool_.clear();
  if (constants_ && memory_alive()) device_->release(constants_);
}

bool Plan::memory_alive() const { return !owner_ || !owner_->destroyed(); }

ExecState::ExecState(const Plan &p, void *external_workspace) : plan(p) {
  if (external_workspace) {
    workspace = external_workspace;
  } else if (plan.workspace_bytes() && plan.device_) {
    workspace = plan.device_->allocate(plan.workspace_bytes());
    owns_workspace = true;
  }
  for (const auto &st : plan.steps()) {
    inputs.push_back(st.inputs);
    outputs.push_back(st.outputs);
  }
}

ExecState::~ExecState() {
  if (!plan.memory_alive()) return;
  if (owns_workspace) plan.device_->release(workspace);
  for (void *p : converted)
    if (p) plan.device_->release(p);
}

void *ExecState::converted_input(size_t i) {
  if (converted.size() <= i) converted.resize(i + 1, nullptr);
  if (!converted[i]) converted[i] = plan.device_->allocate(plan.input_descs()[i].byte_size());
  return converted[i];
}

std::unique_ptr<ExecState> Plan::acquire(void *external_workspace) const {
  if (!external_workspace) {
    std::lock_guard lock(pool_mu_);
    if (!pool_.empty()) {
      auto s = std::move(pool_.back());
      pool_.pop_back();
      return s;
    }
  }
  return std::make_unique<ExecState>(*this, external_workspace);
}

void Plan::give_back(std::unique_ptr<ExecState> state) const {
  if (!state->owns_workspace && workspace_bytes_) return;  // external memory: not pooled
  std::lock_guard lock(pool_mu_);
  pool_.push_back(std::move(state));
}

void Plan::run(ExecState &state, const std::vector<void *> &inputs,
               const std::vector<void *> &outputs, backend::DeviceBackend &device,
               backend::AiCores &cores, const StepHook *after_step, bool timed) const {
  auto *ws = static_cast<uint8_t *>(state.workspace);
  auto resolve = [&](const Binding &b) -> void * {
    switch (b.kind) {
      case Binding::Kind::workspace:
        return ws + b.offset;
      case Binding::Kind::constant:
        return const_cast<void *>(b.ptr);
      case Binding::Kind::input:
        return inputs[b.index];
      case Binding::Kind::output:
        return outputs[b.index];
      default:
        return nullptr;
    }
  };
  // The times are handed over after the last op, so that the trace's work is in no op's time
  // and in no gap between two ops.
  TaskObserver *const trace = task_observer();
  const bool timing = trace != nullptr || timed;
  state.spans.clear();
  for (size_t s = 0; s < steps_.size(); ++s) {
    const PlanStep &st = steps_[s];
    auto &in = state.inputs[s];
    auto &out = state.outputs[s];
    for (size_t k = 0; k < in.size(); ++k) in[k].data = resolve(st.in_bind[k]);
    for (size_t k = 0; k < out.size(); ++k) out[k].data = resolve(st.out_bind[k]);
    const int64_t begin = timing ? now_ns() : 0;
    try {
      st.op->run(in, out, cores);
    } catch (const Error &e) {
      fail(e.code() == Errc::task_failure ? e.code() : Errc::task_failure,
           st.label + ": " + e.what());
    }
    if (timing) state.spans.push_back({&st.type, &st.node, begin, now_ns()});
    if (after_step != nullptr) (*after_step)(s, st, in, out);
  }
  for (const auto &c : copies_) device.copy(outputs[c.output], resolve(c.from), c.bytes);
  if (trace) trace->on_ops(state.spans);
}

}  // namespace openacl::model

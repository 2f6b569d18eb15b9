// The op registry and the checks common to every op: attribute access, const inputs, and
// the comparison of the caller's output descriptors with the inferred ones.
#include <cstring>
#include <sstream>

#include "ops/half.h"
#include "ops/registry.h"

namespace openacl::ops {

namespace {

backend::KernelTable &registry() {
  static backend::KernelTable table("sim");
  return table;
}

const char *attr_kind(const AttrValue &v) {
  static const char *const names[] = {
      "bool",     "int",        "float",       "string",         "data type",    "list bool",
      "list int", "list float", "list string", "list data type", "list list int"};
  return names[v.index()];
}

std::string fmt_desc(const TensorDesc &d) {
  return std::string(dtype_name(d.dtype)) + dims_str(d.dims);
}

}  // namespace

size_t dtype_size(DType t) {
  switch (t) {
    case DType::f32:
    case DType::i32:
    case DType::u32:
      return 4;
    case DType::f16:
    case DType::bf16:
    case DType::i16:
    case DType::u16:
      return 2;
    case DType::i8:
    case DType::u8:
    case DType::boolean:
      return 1;
    case DType::i64:
    case DType::u64:
    case DType::f64:
      return 8;
    default:
      return 0;
  }
}

const char *dtype_name(DType t) {
  switch (t) {
    case DType::undefined:
      return "undefined";
    case DType::f32:
      return "float32";
    case DType::f16:
      return "float16";
    case DType::bf16:
      return "bfloat16";
    case DType::f64:
      return "float64";
    case DType::i8:
      return "int8";
    case DType::i16:
      return "int16";
    case DType::i32:
      return "int32";
    case DType::i64:
      return "int64";
    case DType::u8:
      return "uint8";
    case DType::u16:
      return "uint16";
    case DType::u32:
      return "uint32";
    case DType::u64:
      return "uint64";
    case DType::boolean:
      return "bool";
  }
  return "unknown-dtype";
}

bool is_float(DType t) {
  return t == DType::f32 || t == DType::f16 || t == DType::bf16 || t == DType::f64;
}
bool is_int(DType t) {
  return t == DType::i8 || t == DType::i16 || t == DType::i32 || t == DType::i64 ||
         t == DType::u8 || t == DType::u16 || t == DType::u32 || t == DType::u64;
}

int64_t TensorDesc::element_count() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d < 0 ? 0 : d;
  return n;
}

size_t TensorDesc::byte_size() const {
  return static_cast<size_t>(element_count()) * dtype_size(dtype);
}

std::string dims_str(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

// ---- OpCall ----

const TensorDesc &OpCall::in(size_t i) const {
  if (i >= in_.size()) bad_input(i, "is missing");
  return in_[i];
}

const TensorDesc *OpCall::given(size_t i) const {
  return given_ != nullptr && i < given_->size() ? &(*given_)[i] : nullptr;
}

void OpCall::inputs_between(size_t lo, size_t hi, const char *names) const {
  if (in_.size() < lo || in_.size() > hi) {
    std::string want =
        lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi);
    fail(Errc::op_input_not_match, type_ + ": expected " + want + " inputs (" + names + "), got " +
                                       std::to_string(in_.size()));
  }
}

void OpCall::dtype_in(size_t i, std::initializer_list<DType> ok) const {
  const DType t = in(i).dtype;
  for (DType d : ok)
    if (d == t) return;
  std::string list;
  for (DType d : ok) list += std::string(list.empty() ? "" : ", ") + dtype_name(d);
  bad_dtype(i, std::string("has data type ") + dtype_name(t) + "; supported: " + list);
}

void OpCall::same_dtype(size_t i, size_t j) const {
  if (in(i).dtype != in(j).dtype)
    fail(Errc::op_input_not_match,
         type_ + ": input " + std::to_string(j) + " has data type " + dtype_name(in(j).dtype) +
             ", expected " + dtype_name(in(i).dtype) + " like input " + std::to_string(i));
}

void OpCall::rank_at_least(size_t i, size_t rank) const {
  if (in(i).dims.size() < rank)
    bad_input(i,
              "has shape " + dims_str(in(i).dims) + "; expected rank >= " + std::to_string(rank));
}

void OpCall::rank_is(size_t i, size_t rank) const {
  if (in(i).dims.size() != rank)
    bad_input(i, "has shape " + dims_str(in(i).dims) + "; expected rank " + std::to_string(rank));
}

void OpCall::bad_input(size_t i, const std::string &what) const {
  fail(Errc::op_input_not_match, type_ + ": input " + std::to_string(i) + " " + what);
}
void OpCall::bad_attr(const std::string &name, const std::string &what) const {
  fail(Errc::op_attr_not_match, type_ + ": attr '" + name + "' " + what);
}
void OpCall::bad_dtype(size_t i, const std::string &what) const {
  fail(Errc::unsupported_data_type, type_ + ": input " + std::to_string(i) + " " + what);
}
void OpCall::bad_output(size_t i, const std::string &what) const {
  fail(Errc::op_output_not_match, type_ + ": output " + std::to_string(i) + " " + what);
}

const AttrValue *OpCall::find(const std::string &name) const {
  auto it = attrs_.find(name);
  return it == attrs_.end() ? nullptr : &it->second;
}

namespace {
template <class T>
T attr_as(const OpCall &call, const AttrValue *v, const std::string &name,
          const std::optional<T> &def, const char *want) {
  if (v == nullptr) {
    if (def) return *def;
    call.bad_attr(name, std::string("is required (") + want + ")");
  }
  if (const T *p = std::get_if<T>(v)) return *p;
  call.bad_attr(name, std::string("must be ") + want + ", got " + attr_kind(*v));
}
}  // namespace

bool OpCall::attr_bool(const std::string &name, std::optional<bool> def) const {
  const AttrValue *v = find(name);
  if (v != nullptr && std::holds_alternative<int64_t>(*v)) return std::get<int64_t>(*v) != 0;
  return attr_as<bool>(*this, v, name, def, "bool");
}

int64_t OpCall::attr_int(const std::string &name, std::optional<int64_t> def) const {
  const AttrValue *v = find(name);
  if (v != nullptr && std::holds_alternative<bool>(*v)) return std::get<bool>(*v);
  if (v != nullptr && std::holds_alternative<DType>(*v))
    return static_cast<int64_t>(std::get<DType>(*v));
  return attr_as<int64_t>(*this, v, name, def, "int");
}

float OpCall::attr_float(const std::string &name, std::optional<float> def) const {
  const AttrValue *v = find(name);
  if (v != nullptr && std::holds_alternative<int64_t>(*v))
    return static_cast<float>(std::get<int64_t>(*v));
  return attr_as<float>(*this, v, name, def, "float");
}

std::string OpCall::attr_str(const std::string &name, std::optional<std::string> def) const {
  return attr_as<std::string>(*this, find(name), name, def, "string");
}

DType OpCall::attr_dtype(const std::string &name, std::optional<DType> def) const {
  const AttrValue *v = find(name);
  if (v != nullptr && std::holds_alternative<int64_t>(*v))
    return static_cast<DType>(std::get<int64_t>(*v));
  return attr_as<DType>(*this, v, name, def, "data type");
}

std::vector<int64_t> OpCall::attr_ints(const std::string &name,
                                       std::optional<std::vector<int64_t>> def) const {
  const AttrValue *v = find(name);
  if (v != nullptr && std::holds_alternative<int64_t>(*v)) return {std::get<int64_t>(*v)};
  return attr_as<std::vector<int64_t>>(*this, v, name, def, "list int");
}

std::vector<std::vector<int64_t>> OpCall::attr_int_lists(const std::string &name) const {
  return attr_as<std::vector<std::vector<int64_t>>>(*this, find(name), name, {}, "list list int");
}

std::optional<std::vector<int64_t>> OpCall::const_ints(size_t i) const {
  if (!has(i) || in_[i].value.empty()) return std::nullopt;
  const TensorDesc &d = in_[i];
  const size_t n = static_cast<size_t>(d.element_count());
  if (d.value.size() < n * dtype_size(d.dtype))
    bad_input(i, "holds fewer bytes than its shape " + dims_str(d.dims));
  std::vector<int64_t> out(n);
  for (size_t k = 0; k < n; ++k) {
    switch (d.dtype) {
      case DType::i32: {
        int32_t x;
        std::memcpy(&x, d.value.data() + 4 * k, 4);
        out[k] = x;
        break;
      }
      case DType::i64: {
        int64_t x;
        std::memcpy(&x, d.value.data() + 8 * k, 8);
        out[k] = x;
        break;
      }
      default:
        bad_dtype(
            i, std::string("has data type ") + dtype_name(d.dtype) + "; expected int32 or int64");
    }
  }
  return out;
}

std::optional<std::vector<double>> OpCall::const_floats(size_t i) const {
  if (!has(i) || in_[i].value.empty()) return std::nullopt;
  const TensorDesc &d = in_[i];
  const size_t n = static_cast<size_t>(d.element_count());
  if (d.value.size() < n * dtype_size(d.dtype))
    bad_input(i, "holds fewer bytes than its shape " + dims_str(d.dims));
  std::vector<double> out(n);
  for (size_t k = 0; k < n; ++k) {
    switch (d.dtype) {
      case DType::f32: {
        float x;
        std::memcpy(&x, d.value.data() + 4 * k, 4);
        out[k] = x;
        break;
      }
      case DType::f16: {
        uint16_t x;
        std::memcpy(&x, d.value.data() + 2 * k, 2);
        out[k] = half_to_float(x);
        break;
      }
      case DType::f64: {
        double x;
        std::memcpy(&x, d.value.data() + 8 * k, 8);
        out[k] = x;
        break;
      }
      default: {
        auto ints = const_ints(i);
        return std::vector<double>(ints->begin(), ints->end());
      }
    }
  }
  return out;
}

void OpCall::output(DType dtype, std::vector<int64_t> dims, Format format) {
  TensorDesc d;
  d.dtype = dtype;
  d.dims = std::move(dims);
  d.format = format;
  out_.push_back(std::move(d));
}

int64_t normalize_axis(const OpCall &call, int64_t axis, size_t rank, const char *what) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= std::max<int64_t>(r, 1))
    call.bad_attr(what, "value " + std::to_string(axis) + " is out of range for rank " +
                            std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

Registrar::Registrar(std::initializer_list<OpEntry> entries) {
  for (const OpEntry &e : entries) registry().add(e.type, e.build);
}

// ---- public entry points ----

namespace {

OpBuilder lookup(const backend::KernelTable &kernels, const std::string &op_type) {
  if (OpBuilder build = kernels.find(op_type)) return build;
  if (!is_known_op(op_type))
    fail(Errc::op_type_not_match,
         "op type '" + op_type + "' is not a built-in operator of openacl");
  fail(Errc::op_type_not_match,
       "the " + kernels.backend() + " backend has no kernel for op type '" + op_type + "'");
}

void check_inputs(const std::string &op_type, const std::vector<TensorDesc> &inputs) {
  for (size_t i = 0; i < inputs.size(); ++i)
    for (int64_t d : inputs[i].dims)
      if (d < 0)
        fail(Errc::op_input_not_match, op_type + ": input " + std::to_string(i) + " has shape " +
                                           dims_str(inputs[i].dims) +
                                           "; dynamic dims (-1) need a static shape");
}

}  // namespace

const backend::KernelTable &host_kernels() { return registry(); }

bool is_known_op(const std::string &op_type) { return registry().supports(op_type); }

std::vector<TensorDesc> infer(const std::string &op_type, const std::vector<TensorDesc> &inputs,
                              const Attrs &attrs) {
  OpBuilder build = lookup(registry(), op_type);
  check_inputs(op_type, inputs);
  OpCall call(op_type, inputs, attrs, nullptr, 1);
  build(call);
  return std::move(call.outputs());
}

std::unique_ptr<PreparedOp> prepare(const backend::KernelTable &kernels, const std::string &op_type,
                                    const std::vector<TensorDesc> &inputs,
                                    const std::vector<TensorDesc> &outputs, const Attrs &attrs,
                                    unsigned threads) {
  OpBuilder build = lookup(kernels, op_type);
  check_inputs(op_type, inputs);
  OpCall call(op_type, inputs, attrs, &outputs, threads);
  auto op = build(call);
  op->per_element_ = call.per_element();
  const auto &want = call.outputs();
  if (outputs.size() != want.size())
    fail(Errc::op_output_not_match, op_type + ": expected " + std::to_string(want.size()) +
                                        " outputs, got " + std::to_string(outputs.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    if (outputs[i].dtype != want[i].dtype || outputs[i].dims != want[i].dims)
      fail(Errc::op_output_not_match, op_type + ": output " + std::to_string(i) + " is " +
                                          fmt_desc(outputs[i]) + ", expected " + fmt_desc(want[i]));
  }
  return op;
}

}  // namespace openacl::ops

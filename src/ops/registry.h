// Internal to the op library: how an op type is registered, and the OpCall that an op's
// builder validates (inputs, attrs, given outputs) and fills (inferred outputs).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/op.h"

namespace openacl::ops {

class OpCall {
 public:
  OpCall(const std::string &type, const std::vector<TensorDesc> &inputs, const Attrs &attrs,
         const std::vector<TensorDesc> *outputs, unsigned threads)
      : type_(type), in_(inputs), attrs_(attrs), given_(outputs), threads_(threads) {}

  const std::string &type() const { return type_; }
  // The AI-core count the op is prepared for (see ops::prepare).
  unsigned threads() const { return threads_; }
  size_t num_inputs() const { return in_.size(); }
  // Present = passed and not an "unused optional input" (DType::undefined).
  bool has(size_t i) const { return i < in_.size() && in_[i].dtype != DType::undefined; }
  const TensorDesc &in(size_t i) const;
  const std::vector<TensorDesc> &inputs() const { return in_; }
  // The caller's output descriptors (prepare), or null (infer).
  const std::vector<TensorDesc> *given() const { return given_; }
  const TensorDesc *given(size_t i) const;

  // Checks the number of inputs, naming the op's input list in the message.
  void inputs_between(size_t lo, size_t hi, const char *names) const;
  // Input i must have one of the dtypes (else unsupported_data_type).
  void dtype_in(size_t i, std::initializer_list<DType> ok) const;
  void same_dtype(size_t i, size_t j) const;
  void rank_at_least(size_t i, size_t rank) const;
  void rank_is(size_t i, size_t rank) const;

  [[noreturn]] void bad_input(size_t i, const std::string &what) const;
  [[noreturn]] void bad_attr(const std::string &name, const std::string &what) const;
  [[noreturn]] void bad_dtype(size_t i, const std::string &what) const;
  [[noreturn]] void bad_output(size_t i, const std::string &what) const;

  bool has_attr(const std::string &name) const { return attrs_.count(name) != 0; }
  bool attr_bool(const std::string &name, std::optional<bool> def = {}) const;
  int64_t attr_int(const std::string &name, std::optional<int64_t> def = {}) const;
  float attr_float(const std::string &name, std::optional<float> def = {}) const;
  std::string attr_str(const std::string &name, std::optional<std::string> def = {}) const;
  DType attr_dtype(const std::string &name, std::optional<DType> def = {}) const;
  std::vector<int64_t> attr_ints(const std::string &name,
                                 std::optional<std::vector<int64_t>> def = {}) const;
  std::vector<std::vector<int64_t>> attr_int_lists(const std::string &name) const;

  // Integer values of a const input (TensorDesc::value), or nullopt when unknown.
  std::optional<std::vector<int64_t>> const_ints(size_t i) const;
  std::optional<std::vector<double>> const_floats(size_t i) const;

  // The op's work is a few operations per element (PreparedOp::per_element).
  void work_per_element() { per_element_ = true; }
  bool per_element() const { return per_element_; }

  // Declares output i (appended in order).
  void output(DType dtype, std::vector<int64_t> dims, Format format = Format::nd);
  std::vector<TensorDesc> &outputs() { return out_; }

 private:
  const AttrValue *find(const std::string &name) const;
  const std::string &type_;
  const std::vector<TensorDesc> &in_;
  const Attrs &attrs_;
  const std::vector<TensorDesc> *given_;
  unsigned threads_;
  bool per_element_ = false;
  std::vector<TensorDesc> out_;
};

// Validates the call, declares the outputs with call.output() and returns the op: an op's
// definition and, in host_kernels(), its kernel.
using OpBuilder = backend::OpBuilder;

// Registers op types in host_kernels() at static-initialization time (one Registrar per source
// file).
struct OpEntry {
  const char *type;
  OpBuilder build;
};
struct Registrar {
  Registrar(std::initializer_list<OpEntry> entries);
};

// Normalises an axis in [-rank, rank) or fails as an attr / input error.
int64_t normalize_axis(const OpCall &call, int64_t axis, size_t rank, const char *what);
std::string dims_str(const std::vector<int64_t> &dims);
bool is_float(DType t);
bool is_int(DType t);

}  // namespace openacl::ops

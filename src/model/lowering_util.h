// What the ONNX lowerings share (lowering.cpp, lowering_composite.cpp): attribute and input
// access with model errors that name the node, constants made on the host, and lowering
// makers for plain elementwise ops.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/lowering.h"

namespace openacl::model::lowering_util {

using ops::DType;
using Lower = std::function<void(const Node &, LoweringContext &)>;

std::string where(const Node &n);
[[noreturn]] void unsupported(const Node &n, const std::string &what);
[[noreturn]] void mismatch(const Node &n, const std::string &what);

template <class T>
const T *find_attr(const Node &n, const std::string &name) {
  auto it = n.attrs.find(name);
  if (it == n.attrs.end()) return nullptr;
  const T *v = std::get_if<T>(&it->second);
  if (!v) fail(Errc::parse_model, where(n) + ": attribute '" + name + "' has the wrong type");
  return v;
}
int64_t attr_i(const Node &n, const std::string &name, int64_t dflt);
float attr_f(const Node &n, const std::string &name, float dflt);
std::string attr_s(const Node &n, const std::string &name, std::string dflt);
std::vector<int64_t> attr_ints(const Node &n, const std::string &name, std::vector<int64_t> dflt);
bool has_attr(const Node &n, const std::string &name);

// Input / output value k of the node, -1 when absent.
int in(const Node &n, size_t k);
int out(const Node &n, size_t k);
void only_first_output(const Node &n);
// The integers of a constant input (shape-like inputs must be known when planning).
std::vector<int64_t> const_ints(const Node &n, LoweringContext &c, int v, const std::string &what);
bool is_empty_tensor(LoweringContext &c, int v);
int64_t norm_axis(const Node &n, int64_t axis, size_t rank);
int64_t product(const std::vector<int64_t> &d, size_t from, size_t to);
std::shared_ptr<HostTensor> int64_tensor(const std::vector<int64_t> &v, bool scalar = false);
std::shared_ptr<HostTensor> float_scalar(float f);

// Helpers of the composite lowerings: a float32-only check, a float scalar constant, and
// t = type(inputs) into a new temporary.
void require_f32(const Node &n, LoweringContext &c, int v);
int scalar(LoweringContext &c, float v);
int emit(LoweringContext &c, const char *type, std::vector<int> inputs, ops::Attrs attrs = {});

Lower unary(const char *type);
// Casts the second operand to the first one's dtype when they differ (Pow(float, int)).
Lower binary(const char *type);
// Folds any number of inputs with a binary op.
Lower variadic(const char *type);

// The lowerings of lowering_composite.cpp: ONNX ops built from several library ops.
void add_composite_lowerings(std::unordered_map<std::string, Lower> &table);
// The lowerings of lowering_index.cpp: ops that address elements by index or position.
void add_index_lowerings(std::unordered_map<std::string, Lower> &table);
// The lowerings of lowering_quant.cpp: QuantizeLinear, DequantizeLinear.
void add_quant_lowerings(std::unordered_map<std::string, Lower> &table);
// The lowerings of lowering_rnn.cpp: LSTM, GRU.
void add_rnn_lowerings(std::unordered_map<std::string, Lower> &table);
// lowering_norm.cpp: LRN, GroupNormalization, MeanVarianceNormalization, RMSNormalization.
void add_norm_lowerings(std::unordered_map<std::string, Lower> &table);
// lowering_attention.cpp: Attention, RotaryEmbedding (opset 23).
void add_attention_lowering(std::unordered_map<std::string, Lower> &table);
// lowering_einsum.cpp: Einsum.
void add_einsum_lowering(std::unordered_map<std::string, Lower> &table);

}  // namespace openacl::model::lowering_util

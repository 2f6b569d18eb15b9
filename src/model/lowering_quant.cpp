// ONNX's linear quantization in float32 arithmetic: DequantizeLinear is (x - zero_point) * scale,
// QuantizeLinear is saturate(round_half_even(x / scale) + zero_point). Per-tensor (scalar scale)
// or per-axis (1-D scale along `axis`); int8, uint8 and (dequantize only) int32 data.
#include "model/lowering_util.h"

namespace openacl::model::lowering_util {
namespace {

// A 1-D per-axis parameter seen with x's rank (its values along axis); scalars as they are.
int along_axis(const Node &n, LoweringContext &c, int v, const std::vector<int64_t> &x_dims) {
  const auto d = c.desc(v).dims;
  if (d.empty() || (d.size() == 1 && d[0] == 1)) return v;
  if (d.size() != 1)
    unsupported(n, "blocked quantization (a scale of rank " + std::to_string(d.size()) + ")");
  const int64_t axis = norm_axis(n, attr_i(n, "axis", 1), x_dims.size());
  if (d[0] != x_dims[static_cast<size_t>(axis)])
    mismatch(n, "the scale has " + std::to_string(d[0]) + " values for an axis of size " +
                    std::to_string(x_dims[static_cast<size_t>(axis)]));
  std::vector<int64_t> shape(x_dims.size(), 1);
  shape[static_cast<size_t>(axis)] = d[0];
  const int t = c.temporary();
  c.view(v, t, shape);
  return t;
}

void no_blocks(const Node &n) {
  if (attr_i(n, "block_size", 0) != 0) unsupported(n, "blocked quantization (block_size)");
}

void lower_dequantize(const Node &n, LoweringContext &c) {
  no_blocks(n);
  const int x = in(n, 0);
  const auto xd = c.desc(x);
  if (xd.dtype != DType::i8 && xd.dtype != DType::u8 && xd.dtype != DType::i32)
    unsupported(n, std::string(ops::dtype_name(xd.dtype)) + " data (int8, uint8 and int32 are)");
  require_f32(n, c, in(n, 1));
  int v = emit(c, "Cast", {x}, {{"dst_type", DType::f32}});
  if (in(n, 2) >= 0) {
    const int zp =
        emit(c, "Cast", {along_axis(n, c, in(n, 2), xd.dims)}, {{"dst_type", DType::f32}});
    v = emit(c, "Sub", {v, zp});
  }
  c.op("Mul", {v, along_axis(n, c, in(n, 1), xd.dims)}, {out(n, 0)}, {});
}

void lower_quantize(const Node &n, LoweringContext &c) {
  no_blocks(n);
  const int x = in(n, 0);
  require_f32(n, c, x);
  require_f32(n, c, in(n, 1));
  const auto xd = c.desc(x);
  // Without a zero point the type is the output_dtype attribute (opset 21), else uint8.
  const DType to = in(n, 2) >= 0 ? c.desc(in(n, 2)).dtype
                   : has_attr(n, "output_dtype") && attr_i(n, "output_dtype", 0) != 0
                       ? dtype_from_onnx(attr_i(n, "output_dtype", 0), where(n) + " output_dtype")
                       : DType::u8;
  if (to != DType::i8 && to != DType::u8)
    unsupported(n, std::string(ops::dtype_name(to)) + " output (int8 and uint8 are)");
  int v = emit(c, "Round", {emit(c, "RealDiv", {x, along_axis(n, c, in(n, 1), xd.dims)})});
  if (in(n, 2) >= 0)
    v = emit(
        c, "Add",
        {v, emit(c, "Cast", {along_axis(n, c, in(n, 2), xd.dims)}, {{"dst_type", DType::f32}})});
  const bool s8 = to == DType::i8;
  v = emit(c, "ClipByValue", {v, scalar(c, s8 ? -128.0f : 0.0f), scalar(c, s8 ? 127.0f : 255.0f)});
  c.op("Cast", {v}, {out(n, 0)}, {{"dst_type", to}});
}

}  // namespace

void add_quant_lowerings(std::unordered_map<std::string, Lower> &m) {
  m["DequantizeLinear"] = lower_dequantize;
  m["QuantizeLinear"] = lower_quantize;
}

}  // namespace openacl::model::lowering_util

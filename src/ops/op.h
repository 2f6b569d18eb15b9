// The built-in operator library: operators by their Ascend op-type names, computed on the
// simulated NPU's AI cores. Independent of streams and handles: the API layer (api/op/op.cpp)
// and the model executor (model/) validate with prepare() at the call, then run the prepared
// op inside a stream task. prepare() finds the op's kernel in the kernel table of the backend
// the op will run on (backend/kernel_table.h); this library's own kernels are host_kernels().
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "backend/ai_cores.h"
#include "backend/kernel_table.h"
#include "core/status.h"

namespace openacl::backend {
class DeviceBackend;
}  // namespace openacl::backend

namespace openacl::ops {

// ---------------------------------------------------------------------------------------------
// THE OP CONTRACT: op types, inputs (in order), outputs and attributes, named as in CANN's
// operator specs. "[x]" = optional input: leave it out (when trailing) or pass a descriptor
// with DType::undefined (the API's aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, NULL, ...)).
// "(const)" = a shape-like input read at prepare() from TensorDesc::value (through the C API:
// aclSetTensorConst, or aclSetTensorPlaceMent(ACL_MEMTYPE_HOST) with a host buffer); when it
// has no value the op falls back as stated. Attr types: bool, int (int64_t), float, str, dtype,
// list_int, list_float. Defaults in parentheses; an attr without a default is required.
// Float = f32, f16, bf16 (f16/bf16 computed in f32). Int = i32, i64, i8, u8.
// Broadcasting follows numpy. Shapes of outputs must equal the inferred ones.
//
// Elementwise binary, numpy broadcasting; x1, x2 -> y; same dtype; Float + Int:
//   Add, AddV2, Sub, Mul, RealDiv, Div, Maximum, Minimum, Pow, FloorDiv, FloorMod, Mod (truncated)
//   (Div/RealDiv on ints: truncating, divide by zero -> Errc::task_failure on the stream)
// Comparison, x1, x2 -> y (bool); Float + Int + bool:
//   Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual
// Logical, bool: LogicalAnd, LogicalOr (x1, x2 -> y), LogicalNot (x -> y)
// Bitwise, i8/u8/i32/i64: BitwiseAnd, BitwiseOr, BitwiseXor (x1, x2 -> y), Invert (x -> y)
// Select: condition (bool), x1, x2 -> y (broadcast, the ONNX Where)
// Elementwise unary, x -> y, Float (Abs/Neg/Square/Relu/Sign also i32, i64, i8):
//   Relu, Relu6, Sigmoid, Tanh, Exp, Log, Sqrt, Rsqrt, Neg, Abs, Reciprocal, Square, Floor,
//   Ceil, Round, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Erf, Softplus,
//   Sign, HardSwish, Mish, Identity (any dtype),
//   HardSigmoid (alpha 0.16666666, beta 0.5), LeakyRelu (negative_slope 0.0),
//   Elu (alpha 1.0), Gelu (tanh approximation), GeluV2 (approximate "none"|"tanh", default "none")
// Clip: ClipByValue: x, clip_value_min, clip_value_max -> y (min/max broadcast, usually scalars)
//   Clip: x, [min], [max] -> y; missing bounds come from attrs min / max (float), else none
// Cast: x -> y; attr dst_type (dtype or int aclDataType value; must equal y's dtype). Any of
//   Float, Int, bool, i16, f64.
// ZerosLike, OnesLike: x -> y (same shape and dtype)
// Fill: dims (const, i32/i64 1-D; else y's desc), value (scalar) -> y (value's dtype)
//   FillD: value (scalar) -> y; attr dims (list_int)
//
// Conv2D: x [N,C,H,W] or [N,H,W,C], filter [Cout, C/groups, kH, kW] (format NCHW or ND; also
//   NHWC [Cout, kH, kW, C/groups] and HWCN [kH, kW, C/groups, Cout]), [bias] [Cout], [offset_w]
//   -> y in x's layout. x's format (NCHW or NHWC) sets the layout, else data_format ("NCHW" or
//   "NHWC", default "NCHW"; one that contradicts x's format is an attr error).
//   strides (list_int 4, in the layout's order: 1,1,sH,sW or 1,sH,sW,1), pads (list_int 4:
//   top,bottom,left,right), dilations (list_int 4, as strides, 1,1,1,1), groups (1),
//   offset_x (0, ignored), padding ("" | "SAME" | "VALID": when given, overrides pads),
//   auto_pad ("" | "SAME_UPPER" | "SAME_LOWER" | "VALID" | "NOTSET"; ONNX-style)
// Conv2DTranspose: input_size (const int 1-D of 4; else y's desc), x, filter
//   [C, Cout/groups, kH, kW], [bias], [offset_w] -> y, all NCHW; strides, pads, dilations,
//   groups as Conv2D's NCHW form; data_format ("NCHW"; only NCHW); output_padding (list_int 4,
//   0s), offset_x (0).
//   Conv2DTransposeD: x, filter, [bias], [offset_w] -> y; attr input_size (list_int 4) + the above
// BatchNorm (inference): x [N,C,...], scale, offset, mean, variance -> y [, batch_mean,
//   batch_variance, reserve_space_1, reserve_space_2 (copies of mean / variance)];
//   epsilon (0.0001), data_format ("NCHW"; also "NHWC" for 4-D), is_training (false; true is
//   rejected: training mode is not supported)
// LRN: x [N,C,H,W] -> y; depth_radius (5), bias (1.0), alpha (1.0), beta (0.5), norm_region
//   ("ACROSS_CHANNELS"): y = x / (bias + alpha * sum of x^2 over channels c-r..c+r)^beta. Float.
// LayerNorm: x, gamma, beta -> y [, mean, variance]; begin_norm_axis (0), begin_params_axis (0),
//   epsilon (1e-7). Mean/variance shapes: x's dims with 1 from begin_norm_axis on.
// Pooling, x [N,C,H,W] -> y, Float:
//   MaxPool / AvgPool: ksize (list_int 4), strides (list_int 4), padding ("SAME"|"VALID"),
//     data_format ("NCHW"; only NCHW)
//   MaxPoolV3 / AvgPoolV2: ksize, strides, padding_mode ("CALCULATED"|"SAME"|"VALID",
//     default "CALCULATED"), pads (list_int 4, 0s), data_format ("NCHW"), global_pooling (false),
//     ceil_mode (false); AvgPoolV2 also exclusive (true: padding not counted)
//   GlobalAveragePool, GlobalMaxPool: x [N,C,...] -> y [N,C,1,...]
// Resize: x [N,C,H,W], [roi], [scales] (f32 [4]), [sizes] (i64 [4]) -> y; the output size
//   comes from sizes (const), else scales (const), else y's desc. Attrs:
//   mode ("nearest"|"linear"|"bilinear"|"cubic", default "nearest"; cubic: Float only, attrs
//   cubic_coeff_a (-0.75) and exclude_outside (0)), coordinate_transformation_mode
//   ("half_pixel" default | "asymmetric" | "align_corners" | "pytorch_half_pixel" |
//   "tf_half_pixel_for_nn"), nearest_mode ("round_prefer_floor" default | "round_prefer_ceil" |
//   "floor" | "ceil"). The coordinate mapping uses the constant scales when given, else
//   out/in sizes.
// ResizeNearestNeighborV2, ResizeBilinearV2: x, size (const i32 [2] = H,W; else y's desc) -> y;
//   align_corners (false), half_pixel_centers (false). NCHW.
// GridSampler2D: x [N,C,H,W], grid [N,Ho,Wo,2] (normalized x, y in [-1, 1]) -> y [N,C,Ho,Wo];
//   interpolation_mode ("bilinear" | "nearest"), padding_mode ("zeros" | "border" |
//   "reflection"), align_corners (false). f32.
// Reductions, x -> y: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd:
//   x, axes (const int 1-D) -> y; keep_dims (false). ReduceSumD/MeanD/MaxD/MinD/ProdD: attr axes
//   (list_int). Empty axes = reduce all. Float (Sum/Max/Min/Prod also Int).
// ArgMaxV2: x, dimension (const int scalar) -> y (dtype attr: i32 default or i64);
//   ArgMaxD/ArgMinD: attr dimension, dtype. select_last_index (false): ties give the last index.
// MatMul, MatMulV2: x1 [M,K] (or [K,M] with transpose_x1), x2 [K,N] (or [N,K]), [bias] [N],
//   [offset_w] -> y [M,N]; transpose_x1 (false), transpose_x2 (false). Float.
// BatchMatMul, BatchMatMulV2: x1 [..., M, K], x2 [..., K, N], [bias] (V2 only), [offset_w]
//   -> y [broadcast(batch), M, N]; adj_x1 (false), adj_x2 (false). Rank >= 2 (x2 may be 2-D).
// GEMM: a [M,K] (or [K,M] with transpose_a), b [K,N] (or [N,K] with transpose_b), c [M,N],
//   alpha, beta (one element each, c's dtype) -> y [M,N] = alpha * op(a) op(b) + beta * c (c is
//   not read when beta is 0; y may be c's buffer); transpose_a (false), transpose_b (false).
//   (a/b, c): (f16, f16), (f16, f32), (i8, f32), (i8, i32), (f32, f32); accumulates in f32 (i32
//   for i8). The op behind acl_cblas.h.
// SoftmaxV2, LogSoftmaxV2: x -> y; axes (list_int, [-1])
// Transpose: x, perm (const int 1-D) -> y. TransposeD: x -> y; attr perm (list_int).
//   Transpose also accepts attr perm when the input has no value.
// Reshape: x, shape (const int 1-D; -1 infers one dim; else y's desc) -> y; axis (0),
//   num_axes (-1). Squeeze: x -> y, axis (list_int, [] = all 1-dims). Unsqueeze: x -> y,
//   axes (list_int). ExpandDims: x, axis (const int scalar) -> y. Flatten: x -> y, axis (1).
// Concat: concat_dim (const int scalar), x0..xN-1 -> y; N. ConcatV2: x0..xN-1, concat_dim
//   (const) -> y. ConcatD, ConcatV2D: x0..xN-1 -> y; concat_dim (int), N.
// Split: split_dim (const), x -> y0..yK-1; num_split. SplitD: x -> y0..; split_dim, num_split.
//   SplitV: x, size_splits (const), split_dim (const) -> y0..; num_split.
//   SplitVD: x -> y0..; size_splits (list_int, one -1 allowed), split_dim, num_split.
// Slice: x, offsets (const), size (const; -1 = to the end) -> y. SliceD: attrs offsets, size.
// StridedSliceD: x -> y; begin, end, strides (list_int), begin_mask, end_mask (0);
//   ellipsis_mask, new_axis_mask, shrink_axis_mask must be 0.
// Gather: x, indices (i32/i64) -> y (axis 0); batch_dims (0 only). GatherV2: x, indices,
//   axis (const scalar) -> y. GatherV2D: x, indices -> y; attr axis. Negative indices wrap;
//   out-of-range indices fail on the stream (Errc::task_failure).
// Tile: x, multiples (const) -> y. TileD: attr multiples.
// Expand / BroadcastTo: x, shape (const; else y's desc) -> y (numpy broadcast)
// Pad / PadV3: x, paddings (const [rank,2] i32/i64) [, constant_values] -> y; PadV3 attr mode
//   ("constant", "reflect" (pads below the dim's size), "edge"), paddings_contiguous (true:
//   [begin.., end..] flattened pairs per dim).
//   PadD: attr paddings (list_list_int).
// Cumsum: x, axis (const int scalar) -> y; exclusive (false), reverse (false). CumsumD: x -> y;
//   attr axis (0). Float + i32, i64, f64.
// GatherElements: x, index (i32/i64, x's rank) -> y (index's shape); dim (0).
// ScatterElements: data, indices (i32/i64, data's rank), updates (indices' shape) -> y (data's
//   shape); axis (0), reduction ("none" | "add"; repeated indices apply in order).
// GatherNd: x, indices (i32/i64 [..., k]) -> y [indices dims but the last, x dims from k on].
// TensorScatterUpdate / TensorScatterAdd: x, indices ([..., k]), updates -> y (x's shape):
//   x with the addressed slices replaced / incremented, index tuples applied in order.
// OneHot: x (i32/i64/u8 indices), depth (const int scalar), on_value, off_value (scalars)
//   -> y (on_value's dtype, x's dims with depth inserted at axis); axis (-1). Negative indices
//   count from depth's end (ONNX); others out of [0, depth) give all off_value.
// TopKV2: x, k (const int scalar) -> values, indices; dim (-1), largest (true), sorted (true:
//   results are always sorted; ties keep the lower index first), indices_dtype (i32 | i64,
//   default i32). Float + i32, i64, f64.
// Tril / Triu: x (rank >= 2) -> y; diagonal (0): keeps j - i <= diagonal / >= diagonal of each
//   matrix in the last two dims, zeroes the rest. Any dtype.
// Indices read from data (Gather*, scatters) wrap once when negative; out of range fails the
//   stream (Errc::task_failure).
// ---------------------------------------------------------------------------------------------

// Same numeric values as aclDataType (the API layer casts).
enum class DType : int32_t {
  undefined = -1,
  f32 = 0,
  f16 = 1,
  i8 = 2,
  i32 = 3,
  u8 = 4,
  i16 = 6,
  u16 = 7,
  u32 = 8,
  i64 = 9,
  u64 = 10,
  f64 = 11,
  boolean = 12,
  bf16 = 27,
};
// Same numeric values as aclFormat.
enum class Format : int32_t { undefined = -1, nchw = 0, nhwc = 1, nd = 2, hwcn = 16 };

size_t dtype_size(DType t);
const char *dtype_name(DType t);
std::string dims_str(const std::vector<int64_t> &dims);  // "[2,3]"

struct TensorDesc {
  DType dtype = DType::f32;
  std::vector<int64_t> dims;
  Format format = Format::nd;
  // The tensor's bytes when known at prepare() time (an aclSetTensorConst input, a host-placed
  // input, an ONNX initializer). Ops read "shape-like" inputs (axes, perm, shape, sizes) from
  // here; empty = not known, then the op takes the attr form or the output descriptor.
  std::vector<uint8_t> value;
  // Storage of a 4-D [N, C, H, W] tensor in NHWC order. Only the model executor sets it, on
  // tensors between convolutions (Conv2D, Conv2DTranspose, pooling take it for x and y: oneDNN
  // computes in that order, no reorder); the C API's tensors are always dense in dims order.
  bool channels_last = false;
  int64_t element_count() const;  // 1 for a scalar
  size_t byte_size() const;
};

struct Tensor {
  TensorDesc desc;
  void *data = nullptr;
  size_t bytes = 0;  // capacity of the buffer
};

using AttrValue = std::variant<bool, int64_t, float, std::string, DType, std::vector<uint8_t>,
                               std::vector<int64_t>, std::vector<float>, std::vector<std::string>,
                               std::vector<DType>, std::vector<std::vector<int64_t>>>;
using Attrs = std::map<std::string, AttrValue>;

// An op validated for fixed input/output descriptors and attributes.
class PreparedOp {
 public:
  virtual ~PreparedOp() = default;
  // Runs on a device worker; may spread work with cores.parallel_for. Throws Error on bad
  // data (the stream then fails, R20).
  virtual void run(const std::vector<Tensor> &inputs, const std::vector<Tensor> &outputs,
                   backend::AiCores &cores) const = 0;
  // Tells the op that input `input` always has the n bytes at device address `data` (a model
  // weight), so that it may transform them once instead of at every run. Called on the host
  // (at model load) before the op runs: it reads the bytes through a host view of `device`
  // (backend::HostView), never at `data` itself. `data` outlives the op; run() reads it there
  // as any input.
  virtual void bind_constant(size_t input, const void *data, size_t n,
                             backend::DeviceBackend &device) {
    (void)input, (void)data, (void)n, (void)device;
  }
  // A few operations per element of its tensors (elementwise ops, casts, fills, copies): the
  // bytes it touches bound its time, so a small call may run during its submission
  // (Task::runs_at_call).
  bool per_element() const { return per_element_; }

 private:
  friend std::unique_ptr<PreparedOp> prepare(const backend::KernelTable &, const std::string &,
                                             const std::vector<TensorDesc> &,
                                             const std::vector<TensorDesc> &, const Attrs &,
                                             unsigned);
  bool per_element_ = false;
};

// Output descriptors an op produces for these inputs and attributes. Throws Error with
// Errc::op_type_not_match (unknown op), op_input_not_match, op_attr_not_match,
// unsupported_data_type, naming the op and what was wrong.
std::vector<TensorDesc> infer(const std::string &op_type, const std::vector<TensorDesc> &inputs,
                              const Attrs &attrs);

// Validates the whole call (also outputs: count, dtype, shape) and returns the op ready to run,
// built by its kernel in `kernels`: the table of the backend the op will run on
// (DeviceBackend::kernels), or host_kernels() for an op run on the host. Throws Error as
// infer(), plus Errc::op_output_not_match, and Errc::op_type_not_match naming the op and the
// backend when the table has no kernel for a known op. threads: the AI-core count of the device
// the op will most likely run on (ops may prepare per team size; any device of the backend
// works).
std::unique_ptr<PreparedOp> prepare(const backend::KernelTable &kernels, const std::string &op_type,
                                    const std::vector<TensorDesc> &inputs,
                                    const std::vector<TensorDesc> &outputs, const Attrs &attrs,
                                    unsigned threads);

// What an op is prepared for: the kernels of the backend it will run on and the AI-core count
// of that backend's devices (the arguments of prepare()).
struct Target {
  const backend::KernelTable *kernels;
  unsigned threads;
};

// This library's kernels of every op it defines, on host-addressable memory and the AI cores
// they are given: the sim backend's table (its device memory is host memory), and the one
// constant folding runs on the host. infer() and is_known_op() read the ops' definitions here.
const backend::KernelTable &host_kernels();

bool is_known_op(const std::string &op_type);

}  // namespace openacl::ops

// Matrix products on the op library's oneDNN MatMul / BatchMatMul: Mm, BatchMatMul, torch's
// Matmul (1-d operands, broadcast batches), Mv and WeightQuantBatchMatmulV2 (int8 weights);
// TriangularSolve on the library's MatrixTriangularSolve. A
// transposed view of a dense matrix is passed to the kernel as a transpose flag instead of
// being gathered. Also the weight-format calls: TransMatmulWeight and
// CalculateMatmulWeightSizeV2.
#include <utility>

#include "nn/planner.h"
#include "nn/quant_matmul_kernel.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

const std::initializer_list<D> kFloat = {D::f32, D::f16, D::bf16};

struct Operand {
  size_t value;
  bool transposed;
};

// The operand as the kernel takes it: dense, or the dense matrix whose transpose it views.
Operand operand(Planner &p, size_t v) {
  const Value &val = p.value(v);
  const size_t r = val.desc.dims.size();
  if (val.contiguous || r < 2) return {p.dense(v), false};
  auto dims = val.desc.dims;
  auto strides = val.strides;
  std::swap(dims[r - 1], dims[r - 2]);
  std::swap(strides[r - 1], strides[r - 2]);
  if (View{dims, strides, 0}.contiguous()) return {p.view(v, dims, strides, 0), true};
  return {p.dense(v), false};
}

void check_cube_math_type(Planner &p, int64_t t) {
  // KEEP_DTYPE, ALLOW_FP32_DOWN_PRECISION, USE_FP16, USE_HF32: precision hints; the sim
  // computes every float type in f32, which each of them allows.
  if (t < 0 || t > 3) p.invalid("cubeMathType " + std::to_string(t) + " is not 0 to 3");
}

// out = self @ mat2 for ranks >= 2 (batch dims broadcast), in the operands' dtype.
void product(Planner &p, size_t a, size_t b, size_t out, bool batched) {
  const Operand x = operand(p, a), y = operand(p, b);
  const D xt = p.dtype(x.value), yt = p.dtype(y.value);
  // An f32 x against a float16 / bfloat16 weight stored [N, K] (ggml's F16 weights): the op
  // library's skinny and panel matmuls read the weight as it is, where a cast would write the
  // whole weight again as f32.
  const bool weight_as_is = !batched && xt == D::f32 && (yt == D::f16 || yt == D::bf16) &&
                            y.transposed && !x.transposed && p.dims(x.value).size() == 2;
  const D compute = weight_as_is ? D::f32 : promote(xt, yt);
  const size_t xv = p.cast(x.value, compute),
               yv = weight_as_is ? y.value : p.cast(y.value, compute);
  const size_t r =
      batched ? p.op1("BatchMatMul", {xv, yv}, {{"adj_x1", x.transposed}, {"adj_x2", y.transposed}})
              : p.op1("MatMul", {xv, yv},
                      {{"transpose_x1", x.transposed}, {"transpose_x2", y.transposed}});
  p.store(r, out);
}

void operands(Planner &p, const aclTensor *&self, const aclTensor *&mat2, const aclTensor *&out) {
  self = &p.tensor(0, "self");
  mat2 = &p.tensor(1, "mat2");
  out = &p.tensor(2, "out");
  check_cube_math_type(p, p.i64(3));
  p.dtype_in(*self, "self", kFloat);
  p.dtype_in(*mat2, "mat2", kFloat);
  p.dtype_in(*out, "out", kFloat);
}

void plan_mm(Planner &p) {
  const aclTensor *self, *mat2, *out;
  operands(p, self, mat2, out);
  const auto &a = self->view.dims, &b = mat2->view.dims;
  if (a.size() != 2 || b.size() != 2)
    p.invalid("self " + ops::dims_str(a) + " and mat2 " + ops::dims_str(b) + " must be 2-d");
  if (a[1] != b[0])
    p.invalid("self " + ops::dims_str(a) + " and mat2 " + ops::dims_str(b) +
              " do not chain (k differs)");
  p.same_shape(*out, "out", {a[0], b[1]}, "self @ mat2");
  const size_t x = p.input(*self, "self"), y = p.input(*mat2, "mat2");
  product(p, x, y, p.output(*out, "out"), false);
}

void plan_batch_matmul(Planner &p) {
  const aclTensor *self, *mat2, *out;
  operands(p, self, mat2, out);
  const auto &a = self->view.dims, &b = mat2->view.dims;
  if (a.size() != 3 || b.size() != 3)
    p.invalid("self " + ops::dims_str(a) + " and mat2 " + ops::dims_str(b) + " must be 3-d");
  // A batch of 1 broadcasts against the other's (CANN takes it; ggml's MUL_MAT_ID relies on it).
  if ((a[0] != b[0] && a[0] != 1 && b[0] != 1) || a[2] != b[1])
    p.invalid("self " + ops::dims_str(a) + " and mat2 " + ops::dims_str(b) + " do not chain");
  p.same_shape(*out, "out", {std::max(a[0], b[0]), a[1], b[2]}, "self @ mat2");
  const size_t x = p.input(*self, "self"), y = p.input(*mat2, "mat2");
  product(p, x, y, p.output(*out, "out"), true);
}

// torch.matmul: a 1-d operand is a row (self) or a column (mat2) whose dim the result drops;
// batch dims broadcast.
void plan_matmul(Planner &p) {
  const aclTensor *self, *mat2, *out;
  operands(p, self, mat2, out);
  auto a = self->view.dims, b = mat2->view.dims;
  if (a.empty() || b.empty()) p.invalid("self and mat2 must have at least one dimension");
  const bool row = a.size() == 1, col = b.size() == 1;
  if (row) a.insert(a.begin(), 1);
  if (col) b.push_back(1);
  if (a.back() != b[b.size() - 2])
    p.invalid("self " + ops::dims_str(self->view.dims) + " and mat2 " +
              ops::dims_str(mat2->view.dims) + " do not chain (k differs)");
  std::vector<int64_t> batch = broadcast_shapes(p, std::vector<int64_t>(a.begin(), a.end() - 2),
                                                std::vector<int64_t>(b.begin(), b.end() - 2));
  std::vector<int64_t> full = batch;
  full.push_back(a[a.size() - 2]);
  full.push_back(b.back());
  std::vector<int64_t> expect = batch;
  if (!row) expect.push_back(a[a.size() - 2]);
  if (!col) expect.push_back(b.back());
  p.same_shape(*out, "out", expect, "self @ mat2");
  size_t x = p.input(*self, "self"), y = p.input(*mat2, "mat2");
  const size_t o = p.output(*out, "out");
  if (row) x = p.reshape(p.dense(x), a);
  if (col) y = p.reshape(p.dense(y), b);
  const bool batched = a.size() > 2 || b.size() > 2;
  if (!row && !col) {
    product(p, x, y, o, batched);
    return;
  }
  // The kernel's result has the 1-d operand's dim; out views it without that dim.
  const size_t r = p.temp(p.dtype(o), full);
  product(p, x, y, r, batched);
  p.store(p.reshape(r, expect), o);
}

// v with each row's elements contiguous: v itself, or a gather of it.
size_t rows_dense(Planner &p, size_t v) {
  const auto &d = p.dims(v);
  return d.back() <= 1 || p.value(v).strides.back() == 1 ? v : p.dense(v);
}

// The transpose of a [r, c] value, as a view.
size_t transposed(Planner &p, size_t v) {
  const auto &st = p.value(v).strides;
  return p.view(v, {p.dims(v)[1], p.dims(v)[0]}, {st[1], st[0]}, 0);
}

struct QuantOperands {
  size_t x, weight, scale, bias, y;  // bias: SIZE_MAX when none
};

// WeightQuantBatchMatmulV2 without an offset on its own kernel (nn/quant_matmul_kernel.h), which
// reads the weight's rows of k where they lie: false when an int4 weight's rows of k do not
// split into whole bytes (the composed form then unpacks it).
bool quant_kernel(Planner &p, QuantOperands v, int64_t group) {
  const int64_t m = p.dims(v.x)[0], k = p.dims(v.x)[1], n = p.dims(v.weight)[1];
  size_t w = transposed(p, v.weight);
  if (p.dtype(w) == kInt4) {
    w = p.int4_bytes(w);
    if (w == SIZE_MAX) return false;
  } else {
    w = rows_dense(p, w);
  }
  // The scales as [n, groups]: per channel ([n] or [1, n]) one column.
  size_t s = v.scale;
  if (p.dims(s).size() == 1) s = p.view(s, {1, n}, {0, p.value(s).strides[0]}, 0);
  s = rows_dense(p, transposed(p, s));
  const ops::QuantMatmulShape shape{
      m,          k,           n, group > 0 ? group : k, p.dtype(v.weight) == kInt4, p.dtype(v.x),
      p.dtype(s), p.dtype(v.y)};
  const size_t bias = v.bias == SIZE_MAX ? v.bias : p.reshape(p.cast(p.dense(v.bias), D::f32), {n});
  if (m > ops::kQuantPanelRows) {
    // A prompt's rows: the weight dequantized to float16 for the op library's panel matmul,
    // which takes x in f32 or float16.
    const size_t w16 = p.temp(D::f16, {n, k});
    p.kernel(quant_dequantize_kernel(shape), {w, s}, {w16});
    const size_t x = p.dtype(v.x) == D::f16 ? v.x : p.cast(v.x, D::f32);
    size_t r = p.op1("MatMul", {x, w16}, {{"transpose_x2", true}});
    if (bias != SIZE_MAX) r = p.op1("Add", {r, p.cast(bias, p.dtype(r))});
    p.store(r, v.y);
    return true;
  }
  std::vector<size_t> in = {rows_dense(p, v.x), w, s};
  if (bias != SIZE_MAX) in.push_back(bias);
  const bool direct = p.dims(v.y)[1] <= 1 || p.value(v.y).strides[1] == 1;
  const size_t out = direct ? v.y : p.temp(p.dtype(v.y), {m, n});
  p.kernel(quant_matmul_kernel(shape, bias != SIZE_MAX), std::move(in), {out});
  if (!direct) p.store(out, v.y);
  return true;
}

// y = x @ ((weight + offset) * scale) [+ bias]: an int8 weight [k, n] dequantized per output
// channel (group 0: scale [n] or [1, n]) or per group of antiquantGroupSize rows of k (scale
// [k / group, n]); int4 weights (ACL_INT4, two a byte) are unpacked to int8 first.
void plan_weight_quant_batch_matmul_v2(Planner &p) {
  const aclTensor &x = p.tensor(0, "x");
  const aclTensor &weight = p.tensor(1, "weight");
  const aclTensor &scale = p.tensor(2, "antiquantScale");
  const aclTensor *offset = p.tensor_opt(3, "antiquantOffsetOptional");
  if (p.tensor_opt(4, "quantScaleOptional") || p.tensor_opt(5, "quantOffsetOptional"))
    p.invalid(
        "quantScaleOptional / quantOffsetOptional (a quantized output) are not supported; pass "
        "NULL");
  const aclTensor *bias = p.tensor_opt(6, "biasOptional");
  const int64_t group = p.i64(7);
  const aclTensor &y = p.tensor(8, "y");
  p.dtype_in(x, "x", kFloat);
  p.dtype_in(weight, "weight", {D::i8, kInt4});
  p.dtype_in(scale, "antiquantScale", kFloat);
  p.dtype_in(y, "y", kFloat);
  const auto &xd = x.view.dims, &wd = weight.view.dims;
  if (xd.size() != 2 || wd.size() != 2)
    p.invalid("x " + ops::dims_str(xd) + " and weight " + ops::dims_str(wd) + " must be 2-d");
  const int64_t m = xd[0], k = xd[1], n = wd[1];
  if (wd[0] != k)
    p.invalid("x " + ops::dims_str(xd) + " and weight " + ops::dims_str(wd) +
              " do not chain (k differs)");
  if (group < 0 || (group > 0 && k % group != 0))
    p.invalid("antiquantGroupSize " + std::to_string(group) + " must be 0 or divide k (" +
              std::to_string(k) + ")");
  const std::vector<int64_t> per_group = {group > 0 ? k / group : 1, n};
  const auto &sd = scale.view.dims;
  if (!(sd == per_group || (group == 0 && sd == std::vector<int64_t>{n})))
    p.invalid("antiquantScale has shape " + ops::dims_str(sd) + "; expected " +
              ops::dims_str(per_group));
  if (offset) p.same_shape(*offset, "antiquantOffsetOptional", sd, "antiquantScale's shape");
  if (bias && bias->view.numel() != n)
    p.invalid("biasOptional has shape " + ops::dims_str(bias->view.dims) + "; expected [" +
              std::to_string(n) + "]");
  p.same_shape(y, "y", {m, n}, "x @ weight");
  const D t = x.dtype;
  const size_t xv = p.input(x, "x"), wv = p.input(weight, "weight"),
               sv = p.input(scale, "antiquantScale");
  const size_t ov = offset ? p.input(*offset, "antiquantOffsetOptional") : 0;
  const size_t bv = bias ? p.input(*bias, "biasOptional") : 0;
  const size_t o = p.output(y, "y");
  if (!offset && quant_kernel(p, {xv, wv, sv, bias ? bv : SIZE_MAX, o}, group)) return;
  // Each scale row repeated over its group's rows of k: a copy whose source repeats.
  auto per_row = [&](size_t v) {
    v = p.cast(p.dense(v), t);
    if (group == 0) return v;
    const size_t full = p.temp(t, {k, n});
    p.copy(p.view(v, {k / group, group, n}, {n, 0, 1}, 0), p.reshape(full, {k / group, group, n}));
    return full;
  };
  size_t w = p.cast(weight.dtype == kInt4 ? p.unpack_int4(wv) : wv, t);
  if (offset) w = p.op1("Add", {w, per_row(ov)});
  w = p.op1("Mul", {w, per_row(sv)});
  size_t r = p.op1("MatMul", {xv, w});
  if (bias) r = p.op1("Add", {r, p.cast(p.reshape(p.dense(bv), {n}), t)});
  p.store(r, o);
}

// out = self @ vec: a matrix [n, m] times a vector [m].
void plan_mv(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor &vec = p.tensor(1, "vec");
  const aclTensor &out = p.tensor(2, "out");
  check_cube_math_type(p, p.i64(3));
  p.dtype_in(self, "self", kFloat);
  p.dtype_in(vec, "vec", kFloat);
  p.dtype_in(out, "out", kFloat);
  const auto &a = self.view.dims, &b = vec.view.dims;
  if (a.size() != 2 || b.size() != 1)
    p.invalid("self " + ops::dims_str(a) + " must be 2-d and vec " + ops::dims_str(b) + " 1-d");
  if (a[1] != b[0])
    p.invalid("self " + ops::dims_str(a) + " and vec " + ops::dims_str(b) + " do not chain");
  p.same_shape(out, "out", {a[0]}, "self @ vec");
  const size_t x = p.input(self, "self"), v = p.input(vec, "vec"), o = p.output(out, "out");
  const size_t r = p.temp(out.dtype, {a[0], 1});
  product(p, x, p.reshape(p.dense(v), {b[0], 1}), r, false);
  p.store(p.reshape(r, {a[0]}), o);
}

// TriangularSolve(self [..., n, k], A [..., n, n], upper, transpose, unitriangular, xOut,
// mOut): xOut solves op(A) xOut = self with A's upper or lower triangle (the other is not
// read), mOut = A, as torch.triangular_solve returns them.
void plan_triangular_solve(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor &a = p.tensor(1, "A");
  const bool upper = p.flag(2), transpose = p.flag(3), unit = p.flag(4);
  const aclTensor &x_out = p.tensor(5, "xOut");
  const aclTensor &m_out = p.tensor(6, "mOut");
  for (const auto &[t, name] :
       {std::pair{&self, "self"}, {&a, "A"}, {&x_out, "xOut"}, {&m_out, "mOut"}})
    p.dtype_in(*t, name, kFloat);
  if (unit) p.invalid("unitriangular true is not supported; pass false");
  const auto &b = self.view.dims, &ad = a.view.dims;
  if (ad.size() < 2 || ad[ad.size() - 1] != ad[ad.size() - 2] || b.size() != ad.size() ||
      !std::equal(ad.begin(), ad.end() - 1, b.begin()))
    p.invalid("A " + ops::dims_str(ad) + " and self " + ops::dims_str(b) +
              " are not [..., n, n] and [..., n, k]");
  p.same_shape(x_out, "xOut", b, "self's shape");
  p.same_shape(m_out, "mOut", ad, "A's shape");
  const size_t bv = p.input(self, "self"), av = p.input(a, "A");
  const size_t xo = p.output(x_out, "xOut"), mo = p.output(m_out, "mOut");
  const size_t tri =
      p.op1(upper ? "Triu" : "Tril", {p.cast(av, D::f32)}, {{"diagonal", int64_t{0}}});
  p.store(p.op1("MatrixTriangularSolve", {tri, p.cast(bv, D::f32)},
                {{"lower", !upper}, {"adjoint", transpose}}),
          xo);
  p.store(av, mo);
}

// CANN rearranges a matmul weight into its FRACTAL_NZ layout in place. The simulated NPU's
// matmuls read a weight tagged FRACTAL_NZ in the ND layout of its view, so the conversion
// checks the weight and leaves its bytes as they are (an empty plan that still records the
// weight as read and written).
void plan_trans_matmul_weight(Planner &p) {
  const aclTensor &w = p.tensor(0, "mmWeightRef");
  p.dtype_in(w, "mmWeightRef", {D::f32, D::f16, D::bf16, D::i8});
  if (w.view.dims.size() < 2)
    p.invalid("mmWeightRef has rank " + std::to_string(w.view.dims.size()) +
              "; at least 2 is needed");
  p.ref(w, "mmWeightRef");
}

const Registrar reg({{"Mm", plan_mm},
                     {"Mv", plan_mv},
                     {"TriangularSolve", plan_triangular_solve},
                     {"TransMatmulWeight", plan_trans_matmul_weight},
                     {"BatchMatMul", plan_batch_matmul},
                     {"Matmul", plan_matmul},
                     {"WeightQuantBatchMatmulV2", plan_weight_quant_batch_matmul_v2}});

}  // namespace

// The elements of a weight of this shape in FRACTAL_NZ: the last dim padded to a 32-byte
// fractal row, the one before it to 16 rows, as CANN sizes it.
void matmul_weight_size(const aclIntArray *shape, int64_t dtype, uint64_t *elements) {
  if (shape == nullptr) fail(Errc::null_pointer, "tensorShape is NULL");
  if (elements == nullptr) fail(Errc::null_pointer, "weightTensorSize is NULL");
  const auto t = static_cast<D>(dtype);
  if (t != D::f32 && t != D::f16 && t != D::bf16 && t != D::i8)
    fail(Errc::invalid_argument,
         "dataType " + std::to_string(dtype) + " is not FLOAT, FLOAT16, BF16 or INT8");
  const auto &d = shape->values;
  if (d.size() < 2)
    fail(Errc::invalid_argument, "tensorShape " + ops::dims_str(d) + " has fewer than 2 dims");
  uint64_t n = 1;
  for (size_t i = 0; i < d.size(); ++i) {
    if (d[i] <= 0)
      fail(Errc::invalid_argument,
           "tensorShape " + ops::dims_str(d) + " has a dim that is not positive");
    const auto align = i + 1 == d.size()   ? static_cast<int64_t>(32 / element_size(t))
                       : i + 2 == d.size() ? 16
                                           : 1;
    n *= static_cast<uint64_t>((d[i] + align - 1) / align * align);
  }
  *elements = n;
}

}  // namespace openacl::nn

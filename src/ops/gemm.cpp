// GEMM, the op behind the BLAS calls of acl/ops/acl_cblas.h (libacl_cblas), as CANN names it:
// y = alpha * op(a) op(b) + beta * c, with CANN's pairs of operand and result types. y is
// usually c's own buffer, so each element of c is read before the same element of y is written.
// Also MatrixTriangularSolve (aclnnTriangularSolve's kernel), whose contract in op.h's terms is:
//   matrix [..., n, n] (triangular), rhs [..., n, k] (same batch dims) -> y = op(matrix)^-1 rhs;
//   lower (true), adjoint (false: op is the identity; true: the transpose). f32.
#include "ops/kernel.h"

namespace openacl::ops {
namespace {

// (a and b, c) type pairs: CANN's four, plus f32 throughout.
bool supported_types(DType ab, DType c) {
  switch (ab) {
    case DType::f16:
      return c == DType::f16 || c == DType::f32;
    case DType::i8:
      return c == DType::f32 || c == DType::i32;
    case DType::f32:
      return c == DType::f32;
    default:
      return false;
  }
}

// Copies src (row-major rows x cols, dtype dt) into dst as Acc, transposing when `transpose`.
template <class Acc>
void load(DType dt, const void *src, int64_t rows, int64_t cols, bool transpose,
          std::vector<Acc> &dst) {
  const size_t n = static_cast<size_t>(rows * cols);
  std::vector<Acc> plain(n);
  if constexpr (std::is_same_v<Acc, float>) {
    to_f32(dt, src, plain.data(), n);
  } else {
    const auto *s = static_cast<const int8_t *>(src);
    for (size_t i = 0; i < n; ++i) plain[i] = s[i];
  }
  if (!transpose) {
    dst = std::move(plain);
    return;
  }
  dst.resize(n);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[c * rows + r] = plain[r * cols + c];
}

// acc[j] += av * row[j] for j in [0, n): the inner loop of the product, along contiguous rows.
OPENACL_SIMD_KERNEL void axpy(float *acc, float av, const float *row, int64_t n) {
  for (int64_t j = 0; j < n; ++j) acc[j] += av * row[j];
}
OPENACL_SIMD_KERNEL void axpy(int32_t *acc, int32_t av, const int32_t *row, int64_t n) {
  for (int64_t j = 0; j < n; ++j) acc[j] += av * row[j];
}

// One scalar input (alpha, beta) of dtype dt as double.
double scalar(DType dt, const void *p) {
  if (dt == DType::i32) return *static_cast<const int32_t *>(p);
  float f = 0;
  to_f32(dt, p, &f, 1);
  return f;
}

template <class Acc>
void run_gemm(const std::vector<Tensor> &in, const Tensor &y, int64_t m, int64_t n, int64_t k,
              bool ta, bool tb, backend::AiCores &cores) {
  // A as [m][k] and B as [k][n]: row i of the product is the sum of B's rows scaled by A's row
  // i, so the inner loop runs along contiguous rows and vectorises.
  std::vector<Acc> a, b;
  load<Acc>(in[0].desc.dtype, in[0].data, ta ? k : m, ta ? m : k, ta, a);
  load<Acc>(in[1].desc.dtype, in[1].data, tb ? n : k, tb ? k : n, tb, b);
  const DType ct = y.desc.dtype;
  const double alpha = scalar(ct, in[3].data), beta = scalar(ct, in[4].data);
  const size_t grain = std::max<int64_t>(1, 65536 / std::max<int64_t>(1, n * k));
  parallel_range(cores, static_cast<size_t>(m), grain, [&](size_t r0, size_t r1) {
    std::vector<Acc> acc(static_cast<size_t>(n));
    std::vector<float> row(static_cast<size_t>(n)), c_row(static_cast<size_t>(n), 0.0f);
    for (size_t i = r0; i < r1; ++i) {
      std::fill(acc.begin(), acc.end(), Acc{0});
      simd(OPENACL_SIMD_LAMBDA {
        for (int64_t p = 0; p < k; ++p) axpy(acc.data(), a[i * k + p], &b[p * n], n);
      });
      const size_t off = i * static_cast<size_t>(n);
      if (ct == DType::i32) {
        auto *yi = static_cast<int32_t *>(y.data) + off;
        const auto *ci = static_cast<const int32_t *>(in[2].data) + off;
        for (int64_t j = 0; j < n; ++j) {
          const int64_t c = beta == 0 ? 0 : static_cast<int64_t>(beta) * ci[j];
          yi[j] = static_cast<int32_t>(static_cast<int64_t>(alpha) * acc[j] + c);
        }
        continue;
      }
      if (beta != 0)
        to_f32(ct, static_cast<const char *>(in[2].data) + off * dtype_size(ct), c_row.data(), n);
      for (int64_t j = 0; j < n; ++j)
        row[j] = static_cast<float>(alpha * static_cast<double>(acc[j]) +
                                    (beta == 0 ? 0.0 : beta * c_row[j]));
      from_f32(ct, row.data(), static_cast<char *>(y.data) + off * dtype_size(ct), n);
    }
  });
}

std::unique_ptr<PreparedOp> build_gemm(OpCall &call) {
  call.inputs_between(5, 5, "a, b, c, alpha, beta");
  call.dtype_in(0, {DType::f16, DType::i8, DType::f32});
  call.same_dtype(0, 1);
  const DType ab = call.in(0).dtype, ct = call.in(2).dtype;
  if (!supported_types(ab, ct))
    call.bad_dtype(2, std::string("(c) has data type ") + dtype_name(ct) +
                          ", which GEMM does not produce from " + dtype_name(ab) +
                          " operands (f16 -> f16 or f32, i8 -> f32 or i32, f32 -> f32)");
  call.same_dtype(2, 3);
  call.same_dtype(2, 4);
  for (size_t i : {3, 4})
    if (call.in(i).element_count() != 1)
      call.bad_input(i, std::string(i == 3 ? "(alpha)" : "(beta)") +
                            " must hold one element, has shape " + dims_str(call.in(i).dims));
  for (size_t i : {0, 1, 2}) call.rank_is(i, 2);
  const bool ta = call.attr_bool("transpose_a", false), tb = call.attr_bool("transpose_b", false);
  const auto &a = call.in(0).dims, &b = call.in(1).dims, &c = call.in(2).dims;
  const int64_t m = ta ? a[1] : a[0], k = ta ? a[0] : a[1];
  const int64_t k2 = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
  if (k != k2)
    call.bad_input(1, "(b) has shape " + dims_str(b) + ", whose K (" + std::to_string(k2) +
                          ") differs from a's K (" + std::to_string(k) + ") of shape " +
                          dims_str(a));
  if (c != std::vector<int64_t>{m, n})
    call.bad_input(2, "(c) has shape " + dims_str(c) + "; op(a) op(b) is " + dims_str({m, n}));
  call.output(ct, {m, n});
  const bool int8 = ab == DType::i8;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        if (m == 0 || n == 0) return;
        if (int8) run_gemm<int32_t>(in, out[0], m, n, k, ta, tb, cores);
        else run_gemm<float>(in, out[0], m, n, k, ta, tb, cores);
      });
}

// y = op(matrix)^-1 rhs for triangular matrices [..., n, n] and rhs [..., n, k] (same batch
// dims), op the transpose when `adjoint`: forward or back substitution per column of rhs,
// accumulated in double. A zero on the diagonal gives inf / nan, as LAPACK's trsm does.
std::unique_ptr<PreparedOp> build_matrix_triangular_solve(OpCall &call) {
  call.inputs_between(2, 2, "matrix, rhs");
  call.dtype_in(0, {DType::f32});
  call.same_dtype(0, 1);
  call.rank_at_least(0, 2);
  call.rank_at_least(1, 2);
  const auto &a = call.in(0).dims, &b = call.in(1).dims;
  const size_t r = a.size();
  const int64_t n = a[r - 1];
  if (a[r - 2] != n)
    call.bad_input(0, "(matrix) has shape " + dims_str(a) + "; its last two dims must be equal");
  if (b.size() != r || !std::equal(a.begin(), a.end() - 1, b.begin()))
    call.bad_input(1, "(rhs) has shape " + dims_str(b) + "; matrix " + dims_str(a) +
                          " needs [..., " + std::to_string(n) + ", k]");
  const bool lower = call.attr_bool("lower", true), adjoint = call.attr_bool("adjoint", false);
  const int64_t k = b[r - 1], batch = product(a, 0, r - 2);
  call.output(DType::f32, b);
  // Solving with the transpose of a lower matrix runs upwards, as with an upper one.
  const bool forward = lower != adjoint;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        const float *m = static_cast<const float *>(in[0].data),
                    *rhs = static_cast<const float *>(in[1].data);
        float *y = static_cast<float *>(out[0].data);
        parallel_range(cores, static_cast<size_t>(batch * k), 4, [&](size_t lo, size_t hi) {
          for (size_t col = lo; col < hi; ++col) {
            const int64_t bi = static_cast<int64_t>(col) / k, j = static_cast<int64_t>(col) % k;
            const float *ma = m + bi * n * n;
            const float *bb = rhs + bi * n * k;
            float *yy = y + bi * n * k;
            auto at = [&](int64_t i, int64_t q) { return adjoint ? ma[q * n + i] : ma[i * n + q]; };
            for (int64_t s = 0; s < n; ++s) {
              const int64_t i = forward ? s : n - 1 - s;
              double acc = bb[i * k + j];
              for (int64_t t = 0; t < s; ++t) {
                const int64_t q = forward ? t : n - 1 - t;
                acc -= static_cast<double>(at(i, q)) * yy[q * k + j];
              }
              yy[i * k + j] = static_cast<float>(acc / at(i, i));
            }
          }
        });
      });
}

const Registrar reg({{"GEMM", build_gemm},
                     {"MatrixTriangularSolve", build_matrix_triangular_solve}});

}  // namespace
}  // namespace openacl::ops

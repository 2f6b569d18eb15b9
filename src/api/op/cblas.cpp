// The BLAS calls of acl/ops/acl_cblas.h, built into libacl_cblas as CANN ships them, over
// libascendcl. Each checks its arguments as CANN does, then runs the built-in op GEMM (or
// prepares it for aclopExecWithHandle) with the matrices as dense row-major tensors: inputs
// A, B, C, alpha, beta and output C. A Gemv call is a Gemm call with n = 1, as in CANN.
#include <string>

#include "acl/ops/acl_cblas.h"
#include "api/data_buffer.h"
#include "api/guard.h"
#include "api/op/op_attr.h"
#include "api/op/op_exec.h"
#include "api/op/tensor_desc.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::enum_value;
using openacl::api::guarded;

namespace {

// The names a call gives its dimensions, operands and leading dimensions, for the error
// messages (a Gemv call has no n of its own: nullptr).
struct Names {
  const char *m, *n, *k, *a, *b, *c, *lda, *ldb, *ldc;
};
constexpr Names kGemm{"m", "n", "k", "matrixA", "matrixB", "matrixC", "lda", "ldb", "ldc"};
constexpr Names kGemv{"m", nullptr, "n", "a", "x", "y", "lda", "incx", "incy"};

void check_trans(aclTransType t, const char *name, bool transpose_ok) {
  const int64_t v = enum_value(t);
  if (v == ACL_TRANS_N || (transpose_ok && v == ACL_TRANS_T)) return;
  if (v == ACL_TRANS_NZ || v == ACL_TRANS_NZ_T)
    fail(Errc::invalid_argument,
         std::string(name) +
             " is a fractal-NZ layout, an Ascend storage format openacl does not support; "
             "store the matrix row-major and pass ACL_TRANS_N" +
             (transpose_ok ? " or ACL_TRANS_T" : ""));
  fail(Errc::invalid_argument, std::string(name) + " " + std::to_string(v) + " is not " +
                                   (transpose_ok ? "ACL_TRANS_N or ACL_TRANS_T" : "ACL_TRANS_N"));
}

void check_shape(const Names &names, int m, int n, int k) {
  if (m <= 0 || n <= 0 || k <= 0)
    fail(Errc::invalid_argument,
         std::string("dimensions must be positive, got ") + names.m + " = " + std::to_string(m) +
             (names.n ? std::string(", ") + names.n + " = " + std::to_string(n) : "") + ", " +
             names.k + " = " + std::to_string(k));
}

void check_type(aclComputeType type) {
  if (enum_value(type) != ACL_COMPUTE_HIGH_PRECISION)
    fail(Errc::invalid_argument, "type " + std::to_string(enum_value(type)) +
                                     " is not supported: as in CANN, only "
                                     "ACL_COMPUTE_HIGH_PRECISION");
}

void check_ld(const char *name, int ld) {
  if (ld != -1)
    fail(Errc::invalid_argument, std::string(name) + " is " + std::to_string(ld) +
                                     ": as in CANN, only -1 (dense row-major "
                                     "storage) is supported");
}

void check_not_null(const void *p, const char *name) {
  if (p == nullptr) fail(Errc::invalid_argument, std::string(name) + " is NULL");
}

aclTensorDesc matrix(aclDataType dtype, int64_t rows, int64_t cols) {
  aclTensorDesc d;
  d.dtype = dtype;
  d.format = ACL_FORMAT_ND;
  d.dims = {rows, cols};
  return d;
}

// The GEMM op of one BLAS call: its descriptors and attributes. Not copyable: the descriptor
// arrays point into the object.
class Gemm {
 public:
  Gemm(aclTransType ta, aclTransType tb, int m, int n, int k, aclDataType da, aclDataType db,
       aclDataType dc)
      : a_(ta == ACL_TRANS_T ? matrix(da, k, m) : matrix(da, m, k)),
        b_(tb == ACL_TRANS_T ? matrix(db, n, k) : matrix(db, k, n)),
        c_(matrix(dc, m, n)) {
    scalar_.dtype = dc;
    scalar_.format = ACL_FORMAT_ND;
    attr_.attrs["transpose_a"] = ta == ACL_TRANS_T;
    attr_.attrs["transpose_b"] = tb == ACL_TRANS_T;
  }
  Gemm(const Gemm &) = delete;
  Gemm &operator=(const Gemm &) = delete;

  void execute(const void *alpha, const void *a, const void *b, const void *beta, void *c,
               aclrtStream stream) const {
    aclDataBuffer ba{const_cast<void *>(a), bytes(a_)}, bb{const_cast<void *>(b), bytes(b_)},
        bc{c, bytes(c_)};
    aclDataBuffer balpha{const_cast<void *>(alpha), bytes(scalar_)},
        bbeta{const_cast<void *>(beta), bytes(scalar_)};
    const aclDataBuffer *inputs[] = {&ba, &bb, &bc, &balpha, &bbeta};
    aclDataBuffer *outputs[] = {&bc};
    openacl::api::execute_op("GEMM", 5, in_, inputs, 1, out_, outputs, &attr_, stream);
  }
  aclopHandle *create_handle() const {
    return openacl::api::create_op_handle("GEMM", 5, in_, 1, out_, &attr_);
  }

 private:
  static size_t bytes(const aclTensorDesc &d) {
    size_t n = aclDataTypeSize(d.dtype);
    for (int64_t x : d.dims) n *= static_cast<size_t>(x);
    return n;
  }
  aclTensorDesc a_, b_, c_, scalar_;
  aclopAttr attr_;
  const aclTensorDesc *in_[5] = {&a_, &b_, &c_, &scalar_, &scalar_};
  const aclTensorDesc *out_[1] = {&c_};
};

void gemm(const Names &names, aclTransType transA, aclTransType transB, aclTransType transC, int m,
          int n, int k, const void *alpha, const void *matrixA, int lda, aclDataType dataTypeA,
          const void *matrixB, int ldb, aclDataType dataTypeB, const void *beta, void *matrixC,
          int ldc, aclDataType dataTypeC, aclComputeType type, aclrtStream stream) {
  check_not_null(alpha, "alpha");
  check_not_null(beta, "beta");
  check_not_null(matrixA, names.a);
  check_not_null(matrixB, names.b);
  check_not_null(matrixC, names.c);
  check_shape(names, m, n, k);
  check_trans(transA, "transA", true);
  check_trans(transB, "transB", true);
  check_trans(transC, "transC", false);
  check_ld(names.lda, lda);
  check_ld(names.ldb, ldb);
  check_ld(names.ldc, ldc);
  check_type(type);
  Gemm(transA, transB, m, n, k, dataTypeA, dataTypeB, dataTypeC)
      .execute(alpha, matrixA, matrixB, beta, matrixC, stream);
}

void gemm_handle(const Names &names, aclTransType transA, aclTransType transB, aclTransType transC,
                 int m, int n, int k, aclDataType dataTypeA, aclDataType dataTypeB,
                 aclDataType dataTypeC, aclComputeType type, aclopHandle **handle) {
  check_not_null(handle, "handle");
  check_shape(names, m, n, k);
  check_trans(transA, "transA", true);
  check_trans(transB, "transB", true);
  check_trans(transC, "transC", false);
  check_type(type);
  *handle = Gemm(transA, transB, m, n, k, dataTypeA, dataTypeB, dataTypeC).create_handle();
}

}  // namespace

extern "C" {

aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                       int k, const void *alpha, const void *matrixA, int lda,
                       aclDataType dataTypeA, const void *matrixB, int ldb, aclDataType dataTypeB,
                       const void *beta, void *matrixC, int ldc, aclDataType dataTypeC,
                       aclComputeType type, aclrtStream stream) {
  return guarded(__func__, [&] {
    gemm(kGemm, transA, transB, transC, m, n, k, alpha, matrixA, lda, dataTypeA, matrixB, ldb,
         dataTypeB, beta, matrixC, ldc, dataTypeC, type, stream);
  });
}

aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB, aclTransType transC,
                                      int m, int n, int k, aclDataType dataTypeA,
                                      aclDataType dataTypeB, aclDataType dataTypeC,
                                      aclComputeType type, aclopHandle **handle) {
  return guarded(__func__, [&] {
    gemm_handle(kGemm, transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC, type,
                handle);
  });
}

aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                      int k, const aclFloat16 *alpha, const aclFloat16 *matrixA, int lda,
                      const aclFloat16 *matrixB, int ldb, const aclFloat16 *beta,
                      aclFloat16 *matrixC, int ldc, aclComputeType type, aclrtStream stream) {
  return guarded(__func__, [&] {
    gemm(kGemm, transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_FLOAT16, matrixB, ldb,
         ACL_FLOAT16, beta, matrixC, ldc, ACL_FLOAT16, type, stream);
  });
}

aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB, aclTransType transC,
                                     int m, int n, int k, aclComputeType type,
                                     aclopHandle **handle) {
  return guarded(__func__, [&] {
    gemm_handle(kGemm, transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type,
                handle);
  });
}

aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                       int k, const int32_t *alpha, const int8_t *matrixA, int lda,
                       const int8_t *matrixB, int ldb, const int32_t *beta, int32_t *matrixC,
                       int ldc, aclComputeType type, aclrtStream stream) {
  return guarded(__func__, [&] {
    gemm(kGemm, transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_INT8, matrixB, ldb,
         ACL_INT8, beta, matrixC, ldc, ACL_INT32, type, stream);
  });
}

aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB, aclTransType transC,
                                      int m, int n, int k, aclComputeType type,
                                      aclopHandle **handle) {
  return guarded(__func__, [&] {
    gemm_handle(kGemm, transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32, type,
                handle);
  });
}

aclError aclblasGemvEx(aclTransType transA, int m, int n, const void *alpha, const void *a, int lda,
                       aclDataType dataTypeA, const void *x, int incx, aclDataType dataTypeX,
                       const void *beta, void *y, int incy, aclDataType dataTypeY,
                       aclComputeType type, aclrtStream stream) {
  return guarded(__func__, [&] {
    gemm(kGemv, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, alpha, a, lda, dataTypeA, x, incx,
         dataTypeX, beta, y, incy, dataTypeY, type, stream);
  });
}

aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n, aclDataType dataTypeA,
                                      aclDataType dataTypeX, aclDataType dataTypeY,
                                      aclComputeType type, aclopHandle **handle) {
  return guarded(__func__, [&] {
    gemm_handle(kGemv, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, dataTypeA, dataTypeX, dataTypeY,
                type, handle);
  });
}

aclError aclblasHgemv(aclTransType transA, int m, int n, const aclFloat16 *alpha,
                      const aclFloat16 *a, int lda, const aclFloat16 *x, int incx,
                      const aclFloat16 *beta, aclFloat16 *y, int incy, aclComputeType type,
                      aclrtStream stream) {
  return guarded(__func__, [&] {
    gemm(kGemv, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, alpha, a, lda, ACL_FLOAT16, x, incx,
         ACL_FLOAT16, beta, y, incy, ACL_FLOAT16, type, stream);
  });
}

aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n, aclComputeType type,
                                     aclopHandle **handle) {
  return guarded(__func__, [&] {
    gemm_handle(kGemv, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, ACL_FLOAT16, ACL_FLOAT16,
                ACL_FLOAT16, type, handle);
  });
}

aclError aclblasS8gemv(aclTransType transA, int m, int n, const int32_t *alpha, const int8_t *a,
                       int lda, const int8_t *x, int incx, const int32_t *beta, int32_t *y,
                       int incy, aclComputeType type, aclrtStream stream) {
  return guarded(__func__, [&] {
    gemm(kGemv, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, alpha, a, lda, ACL_INT8, x, incx,
         ACL_INT8, beta, y, incy, ACL_INT32, type, stream);
  });
}

aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n, aclComputeType type,
                                      aclopHandle **handle) {
  return guarded(__func__, [&] {
    gemm_handle(kGemv, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, ACL_INT8, ACL_INT8, ACL_INT32,
                type, handle);
  });
}

}  // extern "C"

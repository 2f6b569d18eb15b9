// acl.blas: pyACL's twins of acl/ops/acl_cblas.h (libacl_cblas). Matrices, vectors, alpha and
// beta are device addresses as ints; enums are ints; the CreateHandleFor calls return
// (handle, ret).
#include "common.h"

#include <acl/acl.h>
#include <acl/ops/acl_cblas.h>

#include <tuple>

namespace openacl::py_acl {

namespace {

aclTransType trans(int t) { return static_cast<aclTransType>(t); }
aclDataType dtype(int t) { return static_cast<aclDataType>(t); }
aclComputeType compute(int t) { return static_cast<aclComputeType>(t); }

}  // namespace

void register_blas(py::module_ &blas) {
  blas.def(
      "gemm_ex", [](int trans_a, int trans_b, int trans_c, int m, int n, int k, Ptr alpha,
                    Ptr matrix_a, int lda, int data_type_a, Ptr matrix_b, int ldb, int data_type_b,
                    Ptr beta, Ptr matrix_c, int ldc, int data_type_c, int type, Ptr stream) {
        return aclblasGemmEx(trans(trans_a), trans(trans_b), trans(trans_c), m, n, k, to_ptr(alpha),
                             to_ptr(matrix_a), lda, dtype(data_type_a), to_ptr(matrix_b), ldb,
                             dtype(data_type_b), to_ptr(beta), to_ptr(matrix_c), ldc,
                             dtype(data_type_c), compute(type), to_ptr(stream));
      });
  blas.def(
      "create_handle_for_gemm_ex", [](int trans_a, int trans_b, int trans_c, int m, int n, int k,
                                      int data_type_a, int data_type_b, int data_type_c, int type) {
        aclopHandle *handle = nullptr;
        aclError ret = aclblasCreateHandleForGemmEx(trans(trans_a), trans(trans_b), trans(trans_c),
                                                    m, n, k, dtype(data_type_a), dtype(data_type_b),
                                                    dtype(data_type_c), compute(type), &handle);
        return std::make_tuple(to_int(handle), ret);
      });
  blas.def("hgemm", [](int trans_a, int trans_b, int trans_c, int m, int n, int k, Ptr alpha,
                       Ptr matrix_a, int lda, Ptr matrix_b, int ldb, Ptr beta, Ptr matrix_c,
                       int ldc, int type, Ptr stream) {
    return aclblasHgemm(trans(trans_a), trans(trans_b), trans(trans_c), m, n, k,
                        to_ptr<const aclFloat16>(alpha), to_ptr<const aclFloat16>(matrix_a), lda,
                        to_ptr<const aclFloat16>(matrix_b), ldb, to_ptr<const aclFloat16>(beta),
                        to_ptr<aclFloat16>(matrix_c), ldc, compute(type), to_ptr(stream));
  });
  blas.def("create_handle_for_hgemm",
           [](int trans_a, int trans_b, int trans_c, int m, int n, int k, int type) {
             aclopHandle *handle = nullptr;
             aclError ret = aclblasCreateHandleForHgemm(
                 trans(trans_a), trans(trans_b), trans(trans_c), m, n, k, compute(type), &handle);
             return std::make_tuple(to_int(handle), ret);
           });
  blas.def("s8gemm", [](int trans_a, int trans_b, int trans_c, int m, int n, int k, Ptr alpha,
                        Ptr matrix_a, int lda, Ptr matrix_b, int ldb, Ptr beta, Ptr matrix_c,
                        int ldc, int type, Ptr stream) {
    return aclblasS8gemm(trans(trans_a), trans(trans_b), trans(trans_c), m, n, k,
                         to_ptr<const int32_t>(alpha), to_ptr<const int8_t>(matrix_a), lda,
                         to_ptr<const int8_t>(matrix_b), ldb, to_ptr<const int32_t>(beta),
                         to_ptr<int32_t>(matrix_c), ldc, compute(type), to_ptr(stream));
  });
  blas.def("create_handle_for_s8gemm",
           [](int trans_a, int trans_b, int trans_c, int m, int n, int k, int type) {
             aclopHandle *handle = nullptr;
             aclError ret = aclblasCreateHandleForS8gemm(
                 trans(trans_a), trans(trans_b), trans(trans_c), m, n, k, compute(type), &handle);
             return std::make_tuple(to_int(handle), ret);
           });
  blas.def("gemv_ex", [](int trans_a, int m, int n, Ptr alpha, Ptr a, int lda, int data_type_a,
                         Ptr x, int incx, int data_type_x, Ptr beta, Ptr y, int incy,
                         int data_type_y, int type, Ptr stream) {
    return aclblasGemvEx(trans(trans_a), m, n, to_ptr(alpha), to_ptr(a), lda, dtype(data_type_a),
                         to_ptr(x), incx, dtype(data_type_x), to_ptr(beta), to_ptr(y), incy,
                         dtype(data_type_y), compute(type), to_ptr(stream));
  });
  blas.def("create_handle_for_gemv_ex", [](int trans_a, int m, int n, int data_type_a,
                                           int data_type_x, int data_type_y, int type) {
    aclopHandle *handle = nullptr;
    aclError ret =
        aclblasCreateHandleForGemvEx(trans(trans_a), m, n, dtype(data_type_a), dtype(data_type_x),
                                     dtype(data_type_y), compute(type), &handle);
    return std::make_tuple(to_int(handle), ret);
  });
  blas.def("hgemv", [](int trans_a, int m, int n, Ptr alpha, Ptr a, int lda, Ptr x, int incx,
                       Ptr beta, Ptr y, int incy, int type, Ptr stream) {
    return aclblasHgemv(trans(trans_a), m, n, to_ptr<const aclFloat16>(alpha),
                        to_ptr<const aclFloat16>(a), lda, to_ptr<const aclFloat16>(x), incx,
                        to_ptr<const aclFloat16>(beta), to_ptr<aclFloat16>(y), incy, compute(type),
                        to_ptr(stream));
  });
  blas.def("create_handle_for_hgemv", [](int trans_a, int m, int n, int type) {
    aclopHandle *handle = nullptr;
    aclError ret = aclblasCreateHandleForHgemv(trans(trans_a), m, n, compute(type), &handle);
    return std::make_tuple(to_int(handle), ret);
  });
  blas.def("s8gemv", [](int trans_a, int m, int n, Ptr alpha, Ptr a, int lda, Ptr x, int incx,
                        Ptr beta, Ptr y, int incy, int type, Ptr stream) {
    return aclblasS8gemv(trans(trans_a), m, n, to_ptr<const int32_t>(alpha),
                         to_ptr<const int8_t>(a), lda, to_ptr<const int8_t>(x), incx,
                         to_ptr<const int32_t>(beta), to_ptr<int32_t>(y), incy, compute(type),
                         to_ptr(stream));
  });
  blas.def("create_handle_for_s8gemv", [](int trans_a, int m, int n, int type) {
    aclopHandle *handle = nullptr;
    aclError ret = aclblasCreateHandleForS8gemv(trans(trans_a), m, n, compute(type), &handle);
    return std::make_tuple(to_int(handle), ret);
  });
}

}  // namespace openacl::py_acl

"""acl.blas: pyACL's BLAS calls (acl.blas.gemm_ex and friends) against numpy."""
import numpy as np
import pytest

import acl

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32 = 0, 1, 2, 3


class Device:
    """Device copies of numpy arrays, freed at the end of the test."""

    def __init__(self):
        self.ptrs = []

    def put(self, array):
        array = np.ascontiguousarray(array)
        ptr, ret = acl.rt.malloc(array.nbytes, ACL_MEM_MALLOC_NORMAL_ONLY)
        assert ret == ACL_SUCCESS
        assert acl.rt.memcpy(ptr, array.nbytes, array.ctypes.data, array.nbytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
        self.ptrs.append(ptr)
        return ptr

    @staticmethod
    def get(ptr, shape, dtype):
        out = np.zeros(shape, dtype=dtype)
        assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        return out

    def free(self):
        for p in self.ptrs:
            assert acl.rt.free(p) == ACL_SUCCESS


@pytest.fixture
def dev(device):
    d = Device()
    yield d
    d.free()


def test_gemm_ex_float16_matches_numpy(dev):
    rng = np.random.default_rng(3)
    m, n, k = 8, 5, 12
    a = rng.integers(-4, 5, (k, m)).astype(np.float16)  # stored transposed
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    c = rng.integers(-4, 5, (m, n)).astype(np.float32)
    dc = dev.put(c)
    ret = acl.blas.gemm_ex(acl.ACL_TRANS_T, acl.ACL_TRANS_N, acl.ACL_TRANS_N, m, n, k,
                           dev.put(np.float32([2])), dev.put(a), -1, ACL_FLOAT16, dev.put(b), -1, ACL_FLOAT16,
                           dev.put(np.float32([0.5])), dc, -1, ACL_FLOAT, acl.ACL_COMPUTE_HIGH_PRECISION, 0)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.rt.synchronize_device() == ACL_SUCCESS
    want = 2 * a.astype(np.float32).T @ b.astype(np.float32) + 0.5 * c
    np.testing.assert_array_equal(Device.get(dc, (m, n), np.float32), want)


def test_s8gemv_and_handle_forms(dev):
    rng = np.random.default_rng(4)
    m, n = 6, 9
    a = rng.integers(-100, 100, (m, n)).astype(np.int8)
    x = rng.integers(-100, 100, (n,)).astype(np.int8)
    y = rng.integers(-100, 100, (m,)).astype(np.int32)
    dy = dev.put(y)
    ret = acl.blas.s8gemv(acl.ACL_TRANS_N, m, n, dev.put(np.int32([3])), dev.put(a), -1, dev.put(x), -1,
                          dev.put(np.int32([-1])), dy, -1, acl.ACL_COMPUTE_HIGH_PRECISION, 0)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.rt.synchronize_device() == ACL_SUCCESS
    np.testing.assert_array_equal(Device.get(dy, (m,), np.int32), 3 * (a.astype(np.int32) @ x.astype(np.int32)) - y)

    for handle, ret in (acl.blas.create_handle_for_hgemm(0, 0, 0, 2, 3, 4, 0),
                        acl.blas.create_handle_for_s8gemm(0, 1, 0, 2, 3, 4, 0),
                        acl.blas.create_handle_for_gemm_ex(1, 0, 0, 2, 3, 4, ACL_INT8, ACL_INT8, ACL_FLOAT, 0),
                        acl.blas.create_handle_for_hgemv(1, 2, 3, 0),
                        acl.blas.create_handle_for_s8gemv(0, 2, 3, 0),
                        acl.blas.create_handle_for_gemv_ex(0, 2, 3, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, 0)):
        assert ret == ACL_SUCCESS and handle != 0
        acl.op.destroy_handle(handle)


def test_bad_arguments_return_invalid_param(dev):
    a = dev.put(np.float16([1, 2, 3, 4]))
    assert acl.blas.hgemm(0, 0, 0, 2, 2, 2, a, a, 2, a, -1, a, a, -1, 0, 0) == ACL_ERROR_INVALID_PARAM
    assert "lda is 2" in acl.get_recent_err_msg()
    handle, ret = acl.blas.create_handle_for_hgemm(acl.ACL_TRANS_NZ, 0, 0, 2, 2, 2, 0)
    assert (handle, ret) == (0, ACL_ERROR_INVALID_PARAM)

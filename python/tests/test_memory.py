"""Data round trips through device memory, checked with numpy, and the base objects
(data buffers, tensor descriptors) that carry addresses."""
import numpy as np
import pytest

import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
NPY_FLOAT32 = 11


@pytest.fixture
def stream(device):
    s, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    yield s
    assert acl.rt.destroy_stream(s) == ACL_SUCCESS


def malloc(size):
    p, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS and p != 0
    return p


def test_sync_round_trip_with_bytes_to_ptr(device):
    data = np.random.default_rng(0).standard_normal((64, 33)).astype(np.float32)
    size = data.nbytes
    dev = malloc(size)
    bytes_data = data.tobytes()
    ret = acl.rt.memcpy(dev, size, acl.util.bytes_to_ptr(bytes_data), size, ACL_MEMCPY_HOST_TO_DEVICE)
    assert ret == ACL_SUCCESS
    out = np.zeros_like(data)
    ptr, _ = acl.util.numpy_contiguous_to_ptr(out)
    ret = acl.rt.memcpy(ptr, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST)
    assert ret == ACL_SUCCESS
    np.testing.assert_array_equal(out, data)
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_async_round_trip_through_pinned_host_memory(stream):
    n = 1 << 16
    size = n * 4
    host_in, ret = acl.rt.malloc_host(size)
    assert ret == ACL_SUCCESS
    host_out, ret = acl.rt.malloc_host(size)
    assert ret == ACL_SUCCESS
    view_in = acl.util.ptr_to_numpy(host_in, (n,), NPY_FLOAT32)
    view_out = acl.util.ptr_to_numpy(host_out, (n,), NPY_FLOAT32)
    view_in[:] = np.arange(n, dtype=np.float32) * 0.5
    view_out[:] = 0

    dev_a, dev_b = malloc(size), malloc(size)
    assert acl.rt.memcpy_async(dev_a, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS
    assert acl.rt.memcpy_async(dev_b, size, dev_a, size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream) == ACL_SUCCESS
    assert acl.rt.memcpy_async(host_out, size, dev_b, size, ACL_MEMCPY_DEVICE_TO_HOST, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    np.testing.assert_array_equal(view_out, view_in)
    assert acl.util.ptr_to_bytes(host_out, size) == view_in.tobytes()

    for p in (dev_a, dev_b):
        assert acl.rt.free(p) == ACL_SUCCESS
    for p in (host_in, host_out):
        assert acl.rt.free_host(p) == ACL_SUCCESS


def test_numpy_to_ptr_is_deprecated_but_works(device):
    data = np.arange(100, dtype=np.int16)
    with pytest.warns(DeprecationWarning):
        ptr = acl.util.numpy_to_ptr(data)
    assert ptr == data.ctypes.data
    dev = malloc(data.nbytes)
    assert acl.rt.memcpy(dev, data.nbytes, ptr, data.nbytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    out = np.zeros_like(data)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, dev, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_array_equal(out, data)
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_numpy_contiguous_to_ptr_copies_a_strided_view():
    base = np.arange(20, dtype=np.int32).reshape(4, 5)
    view = base[:, ::2]
    ptr, arr = acl.util.numpy_contiguous_to_ptr(view)
    assert arr.flags["C_CONTIGUOUS"] and ptr == arr.ctypes.data
    np.testing.assert_array_equal(arr, view)
    with pytest.warns(UserWarning, match="contiguous"):
        acl.util.numpy_to_ptr(view)


def test_ptr_to_numpy_is_a_writable_view():
    buf = bytearray(16)
    ptr = acl.util.bytes_to_ptr(buf)
    view = acl.util.ptr_to_numpy(ptr, (4,), 5)  # int32
    view[:] = [1, 2, 3, 4]
    assert bytes(buf) == np.array([1, 2, 3, 4], dtype=np.int32).tobytes()
    assert acl.util.ptr_to_bytes(ptr, 8) == bytes(buf[:8])


def test_memset_and_memset_async(stream):
    size = 4096
    dev = malloc(size)
    assert acl.rt.memset(dev, size, 0x5A, size) == ACL_SUCCESS
    out = np.zeros(size, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    assert (out == 0x5A).all()
    assert acl.rt.memset_async(dev, size, 0x11, size // 2, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert acl.rt.memcpy(out.ctypes.data, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    assert (out[: size // 2] == 0x11).all() and (out[size // 2:] == 0x5A).all()
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_reduce_async_reduces_src_into_dst(stream):
    a = np.array([1.5, -2.0, 3.0, 8.0], dtype=np.float32)
    b = np.array([0.5, 4.0, -1.0, 9.0], dtype=np.float32)
    for kind, want in ((10, a + b), (11, np.maximum(a, b)), (12, np.minimum(a, b))):  # SUM MAX MIN
        dst, src = malloc(a.nbytes), malloc(b.nbytes)
        for dev, host in ((dst, a), (src, b)):
            ret = acl.rt.memcpy(dev, host.nbytes, host.ctypes.data, host.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)
            assert ret == ACL_SUCCESS
        assert acl.rt.reduce_async(dst, src, a.nbytes, kind, 0, stream, 0) == ACL_SUCCESS  # ACL_FLOAT
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        out = np.zeros_like(a)
        assert acl.rt.memcpy(out.ctypes.data, out.nbytes, dst, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        assert (out == want).all()
        assert acl.rt.reduce_async(dst, src, a.nbytes, 13, 0, stream, 0) == 207000  # EQUAL: not supported
        for p in (dst, src):
            assert acl.rt.free(p) == ACL_SUCCESS


def test_overflow_switch_and_status(stream):
    assert acl.rt.get_stream_overflow_switch(stream) == (0, ACL_SUCCESS)
    assert acl.rt.set_stream_overflow_switch(stream, 1) == ACL_SUCCESS
    assert acl.rt.get_stream_overflow_switch(stream) == (1, ACL_SUCCESS)
    status = malloc(64)
    assert acl.rt.reset_overflow_status(stream) == ACL_SUCCESS
    assert acl.rt.get_overflow_status(status, 64, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    out = np.ones(16, dtype=np.uint32)
    assert acl.rt.memcpy(out.ctypes.data, 64, status, 64, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    assert (out == 0).all()
    assert acl.rt.get_overflow_status(status, 8, stream) != ACL_SUCCESS
    assert acl.rt.free(status) == ACL_SUCCESS


def test_memcpy2d_copies_a_sub_matrix(device):
    src = np.arange(8 * 10, dtype=np.uint8).reshape(8, 10)
    dev = malloc(src.nbytes)
    # Columns 2..7 of every row, packed into a 6-wide device matrix.
    width, height = 6, 8
    ret = acl.rt.memcpy2d(dev, width, src.ctypes.data + 2, 10, width, height, ACL_MEMCPY_HOST_TO_DEVICE)
    assert ret == ACL_SUCCESS
    out = np.zeros((height, width), dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, dev, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_array_equal(out, src[:, 2:8])
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_get_mem_info_tracks_allocations(device):
    free0, total, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    assert ret == ACL_SUCCESS and 0 < free0 <= total
    size = 8 << 20
    dev = malloc(size)
    free1, total1, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    assert ret == ACL_SUCCESS and total1 == total
    assert free1 <= free0 - size
    assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.rt.get_mem_info(acl.ACL_HBM_MEM)[0] == free0


def test_copy_checks_sizes_and_kinds(device):
    dev = malloc(256)
    host = bytes(512)
    hp = acl.util.bytes_to_ptr(host)
    # destMax smaller than count: the runtime-level argument error, as in CANN
    assert acl.rt.memcpy(dev, 256, hp, 512, ACL_MEMCPY_HOST_TO_DEVICE) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert "destMax" in acl.get_recent_err_msg()
    # a kind that contradicts the pointers
    assert acl.rt.memcpy(dev, 256, hp, 256, ACL_MEMCPY_DEVICE_TO_HOST) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.get_recent_err_msg()
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_data_buffer(device):
    dev = malloc(1024)
    buf = acl.create_data_buffer(dev, 1024)
    assert buf != 0
    assert acl.get_data_buffer_addr(buf) == dev
    assert acl.get_data_buffer_size_v2(buf) == 1024
    assert acl.get_data_buffer_size(buf) == 1024
    assert acl.update_data_buffer(buf, dev, 512) == ACL_SUCCESS
    assert acl.get_data_buffer_size_v2(buf) == 512
    assert acl.destroy_data_buffer(buf) == ACL_SUCCESS
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_tensor_desc():
    desc = acl.create_tensor_desc(acl.ACL_FLOAT16, [2, 3, 4], acl.ACL_FORMAT_ND)
    assert desc != 0
    assert acl.get_tensor_desc_type(desc) == acl.ACL_FLOAT16
    assert acl.get_tensor_desc_format(desc) == acl.ACL_FORMAT_ND
    assert acl.get_tensor_desc_num_dims(desc) == 3
    assert acl.get_tensor_desc_dim_v2(desc, 1) == (3, ACL_SUCCESS)
    assert acl.get_tensor_desc_element_count(desc) == 24
    assert acl.get_tensor_desc_size(desc) == 48
    # aclSetTensorShape sets the runtime (storage) shape; the origin shape stays.
    assert acl.set_tensor_shape(desc, [6, 4]) == ACL_SUCCESS
    assert acl.set_tensor_shape_range(desc, [[1, 8], [4, 4]]) == ACL_SUCCESS
    assert acl.get_tensor_desc_dim_v2(desc, 5)[1] != ACL_SUCCESS
    acl.set_tensor_desc_name(desc, "x")
    assert acl.get_tensor_desc_name(desc) == "x"
    assert acl.destroy_tensor_desc(desc) is None
    scalar = acl.create_tensor_desc(acl.ACL_INT32, [], acl.ACL_FORMAT_ND)
    assert scalar != 0 and acl.get_tensor_desc_num_dims(scalar) == 0
    acl.destroy_tensor_desc(scalar)


def test_float16_conversions_match_numpy():
    for value in (0.0, 1.0, -2.5, 65504.0, 0.333):
        bits = acl.float_to_float16(value)
        assert bits == int(np.array(value, dtype=np.float16).view(np.uint16))
        assert acl.float16_to_float(bits) == float(np.array(value, dtype=np.float16))
    assert acl.data_type_size(acl.ACL_FLOAT) == 4
    assert acl.data_type_size(acl.ACL_INT64) == 8

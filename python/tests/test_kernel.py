"""acl.rt kernel calls: a CPU kernel library (see openacl/openacl_kernel.h) loaded, looked up
and launched from Python. The ctest run passes the library in OPENACL_PY_TEST_KERNEL."""
import os
import struct
import threading

import numpy as np
import pytest

import acl

ACL_SUCCESS = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2

KERNEL_LIB = os.environ.get("OPENACL_PY_TEST_KERNEL")
pytestmark = pytest.mark.skipif(not KERNEL_LIB, reason="OPENACL_PY_TEST_KERNEL is not set (run through ctest)")


@pytest.fixture
def binary(device):
    bin_handle, ret = acl.rt.binary_load_from_file(KERNEL_LIB)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    yield bin_handle
    assert acl.rt.binary_unload(bin_handle) == ACL_SUCCESS


def test_launch_a_cpu_kernel(binary):
    func, ret = acl.rt.binary_get_function(binary, "scale")
    assert ret == ACL_SUCCESS
    assert acl.rt.function_get_binary(func) == (binary, ACL_SUCCESS)
    assert acl.rt.get_function_name(func) == ("scale", ACL_SUCCESS)

    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    data = np.arange(1000, dtype=np.float32)
    dev, ret = acl.rt.malloc(data.nbytes, 0)
    assert ret == ACL_SUCCESS
    host = data.tobytes()
    assert acl.rt.memcpy(dev, data.nbytes, acl.util.bytes_to_ptr(host), data.nbytes,
                         ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    args = struct.pack("PQf", dev, data.size, 2.5)
    assert acl.rt.launch_kernel(func, 8, acl.util.bytes_to_ptr(args), len(args), stream) == ACL_SUCCESS
    assert acl.rt.launch_kernel_v2(func, 4, acl.util.bytes_to_ptr(args), len(args), [], stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    out = np.zeros_like(data)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, dev, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    np.testing.assert_allclose(out, data * 2.5 * 2.5)
    assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_a_failing_kernel_fails_its_stream(binary):
    func, ret = acl.rt.binary_get_function(binary, "fail_kernel")
    assert ret == ACL_SUCCESS
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    assert acl.rt.launch_kernel(func, 2, 0, 0, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == acl.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "failing on purpose" in acl.get_recent_err_msg()
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_exception_callback_describes_the_failed_kernel(binary):
    func, ret = acl.rt.binary_get_function(binary, "fail_kernel")
    assert ret == ACL_SUCCESS
    seen = []

    def on_exception(info):
        seen.append((acl.rt.get_task_id_from_exception_info(info),
                     acl.rt.get_stream_id_from_exception_info(info),
                     acl.rt.get_thread_id_from_exception_info(info),
                     acl.rt.get_device_id_from_exception_info(info),
                     acl.rt.get_error_code_from_exception_info(info)))

    assert acl.rt.set_exception_info_callback(on_exception) == ACL_SUCCESS
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    assert acl.rt.launch_kernel(func, 2, 0, 0, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == acl.ACL_ERROR_RT_AICORE_EXCEPTION
    stream_id, ret = acl.rt.stream_get_id(stream)
    assert ret == ACL_SUCCESS
    assert seen == [(1, stream_id, threading.get_native_id(), 0, acl.ACL_ERROR_RT_AICORE_EXCEPTION)]
    assert acl.rt.set_exception_info_callback(None) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    with pytest.raises(TypeError):
        acl.rt.set_exception_info_callback(42)


def test_kernel_lookup_errors(binary):
    func, ret = acl.rt.binary_get_function(binary, "no_such_kernel")
    assert func == 0 and ret != ACL_SUCCESS
    _, ret = acl.rt.binary_load_from_file("/nonexistent/kernels.so")
    assert ret != ACL_SUCCESS

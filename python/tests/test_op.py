"""acl.op: single operators as the pyACL documentation runs them
(acl.op.execute_v2(op_type, input_desc, inputs, output_desc, outputs, attr, stream))."""
import numpy as np
import pytest

import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_FORMAT_ND = 2
DTYPES = {np.dtype(np.float32): 0, np.dtype(np.float16): 1, np.dtype(np.int32): 3, np.dtype(np.int64): 9}


class Tensor:
    """A device tensor: descriptor + data buffer + device memory."""

    def __init__(self, array=None, shape=None, dtype=None):
        if array is not None:
            array = np.ascontiguousarray(array)
            shape, dtype = array.shape, array.dtype
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        self.desc = acl.create_tensor_desc(DTYPES[self.dtype], list(self.shape), ACL_FORMAT_ND)
        self.dev, ret = acl.rt.malloc(max(self.size, 1), ACL_MEM_MALLOC_NORMAL_ONLY)
        assert ret == ACL_SUCCESS
        self.buffer = acl.create_data_buffer(self.dev, self.size)
        if array is not None:
            data = array.tobytes()
            ret = acl.rt.memcpy(self.dev, self.size, acl.util.bytes_to_ptr(data), self.size,
                                ACL_MEMCPY_HOST_TO_DEVICE)
            assert ret == ACL_SUCCESS

    def numpy(self):
        out = np.zeros(self.shape, dtype=self.dtype)
        ret = acl.rt.memcpy(out.ctypes.data, out.nbytes, self.dev, self.size, ACL_MEMCPY_DEVICE_TO_HOST)
        assert ret == ACL_SUCCESS
        return out

    def release(self):
        assert acl.destroy_data_buffer(self.buffer) == ACL_SUCCESS
        assert acl.rt.free(self.dev) == ACL_SUCCESS
        acl.destroy_tensor_desc(self.desc)


def execute(op_type, inputs, outputs, attr, stream=0):
    input_desc = [t.desc for t in inputs]
    input_buffers = [t.buffer for t in inputs]
    output_desc = [t.desc for t in outputs]
    output_buffers = [t.buffer for t in outputs]
    ret = acl.op.execute_v2(op_type, input_desc, input_buffers, output_desc, output_buffers, attr, stream)
    return ret


def test_add_as_in_the_documentation(device):
    a = np.random.default_rng(3).standard_normal((8, 16)).astype(np.float32)
    b = np.random.default_rng(4).standard_normal((8, 16)).astype(np.float32)
    x1, x2, y = Tensor(a), Tensor(b), Tensor(shape=(8, 16), dtype=np.float32)
    op = "Add"
    input_desc, inputs = [x1.desc, x2.desc], [x1.buffer, x2.buffer]
    output_desc, outputs = [y.desc], [y.buffer]
    attr = acl.op.create_attr()
    ret = acl.op.execute_v2(op, input_desc, inputs, output_desc, outputs, attr, 0)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(0) == ACL_SUCCESS
    np.testing.assert_allclose(y.numpy(), a + b, rtol=1e-6)
    acl.op.destroy_attr(attr)
    for t in (x1, x2, y):
        t.release()


def test_broadcasting_mul_on_an_explicit_stream(device):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = np.array([1, -1, 2, -2], dtype=np.int32)
    x1, x2, y = Tensor(a), Tensor(b), Tensor(shape=(3, 4), dtype=np.int32)
    attr = acl.op.create_attr()
    assert execute("Mul", [x1, x2], [y], attr, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    np.testing.assert_array_equal(y.numpy(), a * b)
    acl.op.destroy_attr(attr)
    for t in (x1, x2, y):
        t.release()
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_cast_with_an_attribute(device):
    a = np.array([[0.5, -1.25], [3.0, 100.0]], dtype=np.float32)
    x, y = Tensor(a), Tensor(shape=a.shape, dtype=np.float16)
    attr = acl.op.create_attr()
    assert acl.op.set_attr_int(attr, "dst_type", acl.ACL_FLOAT16) == ACL_SUCCESS
    assert execute("Cast", [x], [y], attr) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(0) == ACL_SUCCESS
    np.testing.assert_array_equal(y.numpy(), a.astype(np.float16))
    acl.op.destroy_attr(attr)
    x.release()
    y.release()


def test_reduce_with_list_attribute(device):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x, y = Tensor(a), Tensor(shape=(2, 4), dtype=np.float32)
    attr = acl.op.create_attr()
    assert acl.op.set_attr_list_int(attr, "axes", [1]) == ACL_SUCCESS
    assert acl.op.set_attr_bool(attr, "keep_dims", False) == ACL_SUCCESS
    assert execute("ReduceSumD", [x], [y], attr) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(0) == ACL_SUCCESS
    np.testing.assert_allclose(y.numpy(), a.sum(axis=1))
    acl.op.destroy_attr(attr)
    x.release()
    y.release()


def test_op_errors_come_back_as_codes(device):
    a = np.ones((2, 2), dtype=np.float32)
    x, y = Tensor(a), Tensor(shape=(2, 2), dtype=np.float32)
    attr = acl.op.create_attr()
    ret = execute("NoSuchOperator", [x], [y], attr)
    assert ret in (acl.ACL_ERROR_OP_TYPE_NOT_MATCH, acl.ACL_ERROR_OP_NOT_FOUND)
    assert acl.get_recent_err_msg()
    wrong = Tensor(shape=(3, 3), dtype=np.float32)
    ret = execute("Add", [x, x], [wrong], attr)
    assert ret == acl.ACL_ERROR_OP_OUTPUT_NOT_MATCH
    with pytest.raises(ValueError):
        acl.op.execute_v2("Add", [x.desc], [x.buffer, x.buffer], [y.desc], [y.buffer], attr, 0)
    acl.op.destroy_attr(attr)
    for t in (x, y, wrong):
        t.release()


def test_compile_calls_and_options(device):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x1, x2, y = Tensor(a), Tensor(a), Tensor(shape=(2, 3), dtype=np.float32)
    attr = acl.op.create_attr()
    assert acl.op.update_params("Add", [x1.desc, x2.desc], [y.desc], attr) == ACL_SUCCESS
    assert acl.op.compile("Add", [x1.desc, x2.desc], [y.desc], attr, acl.ACL_ENGINE_SYS,
                          acl.ACL_COMPILE_SYS, None) == ACL_SUCCESS
    ret = acl.op.compile_and_execute_v2("Add", [x1.desc, x2.desc], [x1.buffer, x2.buffer], [y.desc], [y.buffer],
                                        attr, acl.ACL_ENGINE_SYS, acl.ACL_COMPILE_SYS, None, 0)
    assert ret == ACL_SUCCESS
    assert acl.rt.synchronize_stream(0) == ACL_SUCCESS
    np.testing.assert_array_equal(y.numpy(), a + a)
    assert acl.set_compileopt(acl.ACL_PRECISION_MODE, "allow_fp32_to_fp16") == ACL_SUCCESS
    assert acl.get_compileopt(acl.ACL_PRECISION_MODE) == ("allow_fp32_to_fp16", ACL_SUCCESS)
    acl.op.destroy_attr(attr)
    for t in (x1, x2, y):
        t.release()

"""A minimal ONNX writer (protobuf wire format by hand), so the model tests need no onnx
package: builds y = (x + b) * scale for a float32 input x of a given shape."""
import numpy as np

FLOAT = 1  # TensorProto.FLOAT


def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field, wire):
    return _varint(field << 3 | wire)


def _int(field, n):
    return _key(field, 0) + _varint(n)


def _msg(field, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return _key(field, 2) + _varint(len(payload)) + payload


def _tensor(name, array):
    array = np.ascontiguousarray(array, dtype=np.float32)
    body = b"".join(_int(1, d) for d in array.shape) + _int(2, FLOAT) + _msg(8, name)
    return body + _msg(9, array.tobytes())


def _value_info(name, shape):
    dims = b"".join(_msg(1, _int(1, d)) for d in shape)
    tensor_type = _int(1, FLOAT) + _msg(2, dims)
    return _msg(1, name) + _msg(2, _msg(1, tensor_type))


def _node(op_type, inputs, outputs, name):
    body = b"".join(_msg(1, i) for i in inputs) + b"".join(_msg(2, o) for o in outputs)
    return body + _msg(3, name) + _msg(4, op_type)


def add_scale_model(shape, b, scale, opset=13):
    """The bytes of an ONNX model computing y = (x + b) * scale; x, y float32 of `shape`."""
    b = np.asarray(b, dtype=np.float32)
    graph = (_msg(1, _node("Add", ["x", "b"], ["t"], "add"))
             + _msg(1, _node("Mul", ["t", "scale"], ["y"], "mul"))
             + _msg(2, "add_scale")
             + _msg(5, _tensor("b", b))
             + _msg(5, _tensor("scale", np.array(scale, dtype=np.float32)))
             + _msg(11, _value_info("x", shape))
             + _msg(12, _value_info("y", shape)))
    opset_import = _msg(1, "") + _int(2, opset)
    return _int(1, 8) + _msg(2, "openacl-python-tests") + _msg(7, graph) + _msg(8, opset_import)



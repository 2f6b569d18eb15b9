"""acl.mdl, following the pyACL model inference flow (load, describe, datasets of device
buffers, execute, unload) on a small ONNX model written by tiny_onnx.py."""
import threading

import numpy as np
import pytest

import acl
from tiny_onnx import add_scale_model

ACL_SUCCESS = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_CALLBACK_BLOCK = 1

SHAPE = (2, 3)
BIAS = np.array([1.0, 2.0, 3.0], dtype=np.float32)
SCALE = 2.0


def expected(x):
    return (x + BIAS) * SCALE


@pytest.fixture
def model_path(tmp_path):
    path = tmp_path / "add_scale.onnx"
    path.write_bytes(add_scale_model(SHAPE, BIAS, SCALE))
    return str(path)


@pytest.fixture
def model_id(context, model_path):
    model_id, ret = acl.mdl.load_from_file(model_path)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    yield model_id
    assert acl.mdl.unload(model_id) == ACL_SUCCESS


def create_dataset(model_desc, count_fn, size_fn):
    dataset = acl.mdl.create_dataset()
    buffers = []
    for i in range(count_fn(model_desc)):
        size = size_fn(model_desc, i)
        dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
        assert ret == ACL_SUCCESS
        data = acl.create_data_buffer(dev, size)
        _, ret = acl.mdl.add_dataset_buffer(dataset, data)
        assert ret == ACL_SUCCESS
        buffers.append((dev, size))
    return dataset, buffers


def destroy_dataset(dataset):
    for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
        data_buf = acl.mdl.get_dataset_buffer(dataset, i)
        assert acl.rt.free(acl.get_data_buffer_addr(data_buf)) == ACL_SUCCESS
        assert acl.destroy_data_buffer(data_buf) == ACL_SUCCESS
    assert acl.mdl.destroy_dataset(dataset) == ACL_SUCCESS


def run_inference(model_id, x, execute):
    model_desc = acl.mdl.create_desc()
    ret = acl.mdl.get_desc(model_desc, model_id)
    assert ret == ACL_SUCCESS
    input_dataset, inputs = create_dataset(model_desc, acl.mdl.get_num_inputs, acl.mdl.get_input_size_by_index)
    output_dataset, outputs = create_dataset(model_desc, acl.mdl.get_num_outputs,
                                             acl.mdl.get_output_size_by_index)
    bytes_data = x.tobytes()
    dev, size = inputs[0]
    ret = acl.rt.memcpy(dev, size, acl.util.bytes_to_ptr(bytes_data), len(bytes_data), ACL_MEMCPY_HOST_TO_DEVICE)
    assert ret == ACL_SUCCESS
    execute(input_dataset, output_dataset)
    dev, size = outputs[0]
    out = np.zeros(SHAPE, dtype=np.float32)
    ret = acl.rt.memcpy(out.ctypes.data, out.nbytes, dev, size, ACL_MEMCPY_DEVICE_TO_HOST)
    assert ret == ACL_SUCCESS
    destroy_dataset(input_dataset)
    destroy_dataset(output_dataset)
    assert acl.mdl.destroy_desc(model_desc) == ACL_SUCCESS
    return out


def test_model_description(model_id):
    model_desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(model_desc, model_id) == ACL_SUCCESS
    assert acl.mdl.get_num_inputs(model_desc) == 1
    assert acl.mdl.get_num_outputs(model_desc) == 1
    assert acl.mdl.get_input_size_by_index(model_desc, 0) == 24
    assert acl.mdl.get_output_size_by_index(model_desc, 0) == 24
    assert acl.mdl.get_input_name_by_index(model_desc, 0) == "x"
    assert acl.mdl.get_output_name_by_index(model_desc, 0) == "y"
    assert acl.mdl.get_input_data_type(model_desc, 0) == acl.ACL_FLOAT
    assert acl.mdl.get_input_index_by_name(model_desc, "x") == (0, ACL_SUCCESS)
    dims, ret = acl.mdl.get_input_dims(model_desc, 0)
    assert ret == ACL_SUCCESS
    assert dims == {"name": "x", "dimCount": 2, "dims": [2, 3]}
    dims, ret = acl.mdl.get_output_dims(model_desc, 0)
    assert ret == ACL_SUCCESS and dims["dims"] == [2, 3]
    dims, ret = acl.mdl.get_input_dims(model_desc, 5)
    assert dims == {} and ret != ACL_SUCCESS
    assert acl.mdl.get_input_dims_range(model_desc, 0) == (
        {"rangeCount": 2, "range": [[2, 2], [3, 3]]}, ACL_SUCCESS)
    rng, ret = acl.mdl.get_input_dims_range(model_desc, 5)
    assert rng == {} and ret != ACL_SUCCESS
    assert acl.mdl.destroy_desc(model_desc) == ACL_SUCCESS


def test_execute(model_id):
    x = np.arange(6, dtype=np.float32).reshape(SHAPE)

    def execute(inp, out):
        assert acl.mdl.execute(model_id, inp, out) == ACL_SUCCESS

    np.testing.assert_allclose(run_inference(model_id, x, execute), expected(x))


def test_dump_writes_each_layer_output_as_npy(model_id, tmp_path):
    import json
    config = tmp_path / "dump.json"
    config.write_text(json.dumps({"dump": {"dump_path": str(tmp_path / "dump"),
                                           "dump_list": [{"model_name": "add_scale"}]}}))
    assert acl.mdl.set_dump(str(config)) == 100045  # ACL_ERROR_DUMP_NOT_RUN: init_dump first
    assert acl.mdl.init_dump() == ACL_SUCCESS
    assert acl.mdl.set_dump(str(config)) == ACL_SUCCESS, acl.get_recent_err_msg()
    x = np.arange(6, dtype=np.float32).reshape(SHAPE)

    def execute(inp, out):
        assert acl.mdl.execute(model_id, inp, out) == ACL_SUCCESS

    y = run_inference(model_id, x, execute)
    assert acl.mdl.finalize_dump() == ACL_SUCCESS
    files = sorted((tmp_path / "dump").rglob("*.output.0.npy"), key=lambda p: int(p.name.split(".")[2]))
    assert files, "no dump files"
    np.testing.assert_allclose(np.load(files[-1]), y)  # the last layer's output is the model's


def test_execute_async_with_callback(model_id, context):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    x = np.full(SHAPE, -1.5, dtype=np.float32)
    done = []
    run = [True]

    def process_callback(args_list):
        ctx, timeout = args_list
        acl.rt.set_context(ctx)
        while run[0]:
            acl.rt.process_report(timeout)

    tid, ret = acl.util.start_thread(process_callback, [context, 20])
    assert ret == ACL_SUCCESS
    assert acl.rt.subscribe_report(tid, stream) == ACL_SUCCESS

    def execute(inp, out):
        assert acl.mdl.execute_async(model_id, inp, out, stream) == ACL_SUCCESS
        assert acl.rt.launch_callback(lambda d: done.append((threading.get_ident(), d)), "inferred",
                                      ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS

    np.testing.assert_allclose(run_inference(model_id, x, execute), expected(x))
    assert done == [(tid, "inferred")]
    assert acl.rt.unsubscribe_report(tid, stream) == ACL_SUCCESS
    run[0] = False
    assert acl.util.stop_thread(tid) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_load_from_mem_and_query_size(context, model_path):
    with open(model_path, "rb") as f:
        model = f.read()
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(model), len(model))
    assert ret == ACL_SUCCESS
    x = np.ones(SHAPE, dtype=np.float32)

    def execute(inp, out):
        assert acl.mdl.execute(model_id, inp, out) == ACL_SUCCESS

    np.testing.assert_allclose(run_inference(model_id, x, execute), expected(x))
    assert acl.mdl.unload(model_id) == ACL_SUCCESS
    work, weight, ret = acl.mdl.query_size(model_path)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()


def test_bad_model_inputs_return_error_codes(context, tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"definitely not a model")
    model_id, ret = acl.mdl.load_from_file(str(bad))
    assert ret != ACL_SUCCESS
    _, ret = acl.mdl.load_from_file(str(tmp_path / "missing.onnx"))
    assert ret != ACL_SUCCESS
    assert acl.mdl.unload(123456) == acl.ACL_ERROR_INVALID_MODEL_ID
    assert acl.mdl.execute(123456, 0, 0) != ACL_SUCCESS


ACL_MDL_PRIORITY_INT32 = 0
ACL_MDL_LOAD_TYPE_SIZET = 1
ACL_MDL_PATH_PTR = 2
ACL_MDL_MEM_ADDR_PTR = 3
ACL_MDL_MEM_SIZET = 4
ACL_MDL_LOAD_FROM_FILE = 1
ACL_MDL_LOAD_FROM_MEM = 3
ACL_MDL_STREAM_SYNC_TIMEOUT = 0
ACL_ERROR_INVALID_PARAM = 100000


def test_load_with_config_from_file_and_memory(context, model_path):
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(SHAPE)
    handle = acl.mdl.create_config_handle()
    assert handle != 0
    assert acl.mdl.set_config_opt(handle, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE) == ACL_SUCCESS
    assert acl.mdl.set_config_opt(handle, ACL_MDL_PATH_PTR, model_path) == ACL_SUCCESS
    assert acl.mdl.set_config_opt(handle, ACL_MDL_PRIORITY_INT32, 0) == ACL_SUCCESS
    model_id, ret = acl.mdl.load_with_config(handle)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()

    def execute(inp, out):
        assert acl.mdl.execute(model_id, inp, out) == ACL_SUCCESS

    np.testing.assert_allclose(run_inference(model_id, x, execute), expected(x))
    assert acl.mdl.unload(model_id) == ACL_SUCCESS
    with pytest.raises(TypeError):
        acl.mdl.set_config_opt(handle, ACL_MDL_PATH_PTR, 5)
    assert acl.mdl.destroy_config_handle(handle) == ACL_SUCCESS

    data = open(model_path, "rb").read()
    handle = acl.mdl.create_config_handle()
    assert acl.mdl.set_config_opt(handle, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_MEM) == ACL_SUCCESS
    assert acl.mdl.set_config_opt(handle, ACL_MDL_MEM_ADDR_PTR, acl.util.bytes_to_ptr(data)) == ACL_SUCCESS
    assert acl.mdl.set_config_opt(handle, ACL_MDL_MEM_SIZET, len(data)) == ACL_SUCCESS
    model_id, ret = acl.mdl.load_with_config(handle)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    np.testing.assert_allclose(run_inference(model_id, x, execute), expected(x))
    assert acl.mdl.unload(model_id) == ACL_SUCCESS
    assert acl.mdl.destroy_config_handle(handle) == ACL_SUCCESS
    _, ret = acl.mdl.load_with_config(handle)
    assert ret == ACL_ERROR_INVALID_PARAM


def test_execute_v2_and_async_v2(model_id, context):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    handle = acl.mdl.create_exec_config_handle()
    assert acl.mdl.set_exec_config_opt(handle, ACL_MDL_STREAM_SYNC_TIMEOUT, 5000) == ACL_SUCCESS
    x = np.full(SHAPE, 0.25, dtype=np.float32)

    def execute_v2(inp, out):
        assert acl.mdl.execute_v2(model_id, inp, out, stream, handle) == ACL_SUCCESS

    def execute_async_v2(inp, out):
        assert acl.mdl.execute_async_v2(model_id, inp, out, stream, handle) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS

    np.testing.assert_allclose(run_inference(model_id, x, execute_v2), expected(x))
    np.testing.assert_allclose(run_inference(model_id, x, execute_async_v2), expected(x))
    assert acl.mdl.destroy_exec_config_handle(handle) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_prof_model_subscription_reports_each_op(model_id):
    """acl.prof's subscription as pyACL's documented flow: a thread reads the pipe while the
    model runs; the records name the model's ops with their times."""
    import os
    read_end, write_end = os.pipe()
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(lambda: os.read(read_end, 4096), b"")))
    reader.start()
    config = acl.prof.create_subscribe_config(1, 0, write_end)
    assert config != 0, acl.get_recent_err_msg()
    assert acl.prof.model_subscribe(model_id, config) == ACL_SUCCESS, acl.get_recent_err_msg()
    x = np.arange(6, dtype=np.float32).reshape(SHAPE)

    def execute(inp, out):
        assert acl.mdl.execute(model_id, inp, out) == ACL_SUCCESS

    run_inference(model_id, x, execute)
    assert acl.prof.model_un_subscribe(model_id) == ACL_SUCCESS
    os.close(write_end)
    reader.join(30)
    os.close(read_end)
    data = b"".join(chunks)
    desc_size, ret = acl.prof.get_op_desc_size()
    assert ret == ACL_SUCCESS and len(data) == 2 * desc_size
    ptr = acl.util.bytes_to_ptr(data)
    assert acl.prof.get_op_num(ptr, len(data)) == (2, ACL_SUCCESS)
    assert [acl.prof.get_op_name_v2(ptr, len(data), i) for i in range(2)] == [("add", ACL_SUCCESS),
                                                                             ("mul", ACL_SUCCESS)]
    type_len, ret = acl.prof.get_op_type_len(ptr, len(data), 0)
    op_type, ret = acl.prof.get_op_type(ptr, len(data), 0, type_len)
    assert ret == ACL_SUCCESS and len(op_type) == type_len - 1 > 0
    assert acl.prof.get_op_type_v2(ptr, len(data), 0) == (op_type, ACL_SUCCESS)
    for i in range(2):
        start, end = acl.prof.get_op_start(ptr, len(data), i), acl.prof.get_op_end(ptr, len(data), i)
        assert 0 < start <= end and acl.prof.get_op_duration(ptr, len(data), i) == end - start
        assert acl.prof.get_model_id(ptr, len(data), i) == model_id
    assert acl.prof.get_op_name_v2(ptr, len(data), 2) == (None, 100000)
    assert acl.prof.destroy_subscribe_config(config) == ACL_SUCCESS

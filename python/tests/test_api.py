"""The module's shape (pyACL names and return conventions), argument type errors, error
codes for made-up handles, and no leaks over many create/destroy cycles."""
import gc

import numpy as np
import pytest

import acl
from conftest import rss_bytes

ACL_SUCCESS = 0

PYACL_NAMES = {
    acl: ["init", "finalize", "get_version", "get_soc_name", "get_recent_err_msg", "app_log",
          "create_data_buffer", "destroy_data_buffer", "update_data_buffer", "get_data_buffer_addr",
          "get_data_buffer_size", "get_data_buffer_size_v2", "data_type_size", "float16_to_float",
          "float_to_float16", "create_tensor_desc", "destroy_tensor_desc", "get_tensor_desc_type",
          "get_tensor_desc_format", "get_tensor_desc_size", "get_tensor_desc_element_count",
          "get_tensor_desc_num_dims", "get_tensor_desc_dim", "get_tensor_desc_dim_v2",
          "set_tensor_shape", "set_tensor_format", "set_tensor_const", "set_tensor_place_ment",
          "set_tensor_shape_range", "set_tensor_dynamic_input"],
    acl.rt: ["set_device", "reset_device", "reset_device_force", "get_device", "get_device_count",
             "get_run_mode", "synchronize_device", "create_context", "destroy_context", "set_context",
             "get_context", "ctx_get_current_default_stream", "create_stream", "create_stream_with_config",
             "destroy_stream", "destroy_stream_force", "synchronize_stream",
             "synchronize_stream_with_timeout", "stream_query", "create_event", "create_event_with_flag",
             "destroy_event", "record_event", "reset_event", "query_event_status", "stream_wait_event",
             "synchronize_event", "synchronize_event_with_timeout", "event_elapsed_time",
             "subscribe_report", "launch_callback", "process_report", "unsubscribe_report", "malloc",
             "malloc_host", "malloc_cached", "free", "free_host", "memcpy", "memcpy_async", "memset",
             "memset_async", "memcpy2d", "memcpy2d_async", "get_mem_info", "get_device_info",
             "device_can_access_peer", "set_op_execute_time_out"],
    acl.op: ["create_attr", "destroy_attr", "set_attr_bool", "set_attr_int", "set_attr_float",
             "set_attr_string", "set_attr_list_int", "set_attr_list_float", "set_attr_data_type",
             "execute_v2", "execute", "create_handle", "execute_with_handle", "destroy_handle", "cast",
             "create_handle_for_cast", "infer_shape", "set_model_dir", "load"],
    acl.mdl: ["load_from_file", "load_from_mem", "load_from_file_with_mem", "query_size", "execute",
              "execute_async", "unload", "create_desc", "destroy_desc", "get_desc", "get_num_inputs",
              "get_num_outputs", "get_input_size_by_index", "get_output_size_by_index", "create_dataset",
              "destroy_dataset", "add_dataset_buffer", "get_dataset_buffer", "get_dataset_num_buffers",
              "get_input_dims", "get_input_dims_range", "get_output_dims", "get_input_name_by_index", "get_output_name_by_index",
              "get_input_data_type", "get_output_data_type", "get_input_index_by_name",
              "set_dataset_tensor_desc", "get_dynamic_batch", "set_dynamic_batch_size", "init_dump", "set_dump",
              "finalize_dump"],
    acl.prof: ["init", "finalize", "create_config", "destroy_config", "start", "stop", "create_stamp",
               "destroy_stamp", "set_stamp_trace_message", "push", "pop", "mark", "range_start", "range_stop"],
    acl.util: ["start_thread", "stop_thread", "numpy_to_ptr", "numpy_contiguous_to_ptr", "ptr_to_numpy",
               "bytes_to_ptr", "ptr_to_bytes"],
    acl.blas: ["gemm_ex", "hgemm", "s8gemm", "gemv_ex", "hgemv", "s8gemv", "create_handle_for_gemm_ex",
               "create_handle_for_hgemm", "create_handle_for_s8gemm", "create_handle_for_gemv_ex",
               "create_handle_for_hgemv", "create_handle_for_s8gemv"],
}


@pytest.mark.parametrize("module", list(PYACL_NAMES), ids=lambda m: m.__name__)
def test_pyacl_names_exist(module):
    missing = [n for n in PYACL_NAMES[module] if not callable(getattr(module, n, None))]
    assert missing == []


def test_submodules_are_attributes_of_acl():
    assert acl.rt.__name__ == "acl.rt" and acl.util.__name__ == "acl.util"
    # Samples feature-test the converters this way.
    assert "bytes_to_ptr" in dir(acl.util) and "ptr_to_bytes" in dir(acl.util)


def test_constants_match_the_c_values():
    assert acl.ACL_SUCCESS == 0
    assert (acl.ACL_MEMCPY_HOST_TO_HOST, acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST,
            acl.ACL_MEMCPY_DEVICE_TO_DEVICE) == (0, 1, 2, 3)
    assert (acl.ACL_MEM_MALLOC_HUGE_FIRST, acl.ACL_MEM_MALLOC_HUGE_ONLY, acl.ACL_MEM_MALLOC_NORMAL_ONLY) == (0, 1, 2)
    assert (acl.ACL_CALLBACK_NO_BLOCK, acl.ACL_CALLBACK_BLOCK) == (0, 1)
    assert (acl.ACL_DEVICE, acl.ACL_HOST) == (0, 1)
    assert (acl.ACL_DT_UNDEFINED, acl.ACL_FLOAT, acl.ACL_FLOAT16, acl.ACL_INT8, acl.ACL_INT32, acl.ACL_UINT8,
            acl.ACL_INT16, acl.ACL_UINT16, acl.ACL_UINT32, acl.ACL_INT64, acl.ACL_UINT64, acl.ACL_DOUBLE,
            acl.ACL_BOOL) == (-1, 0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12)
    assert (acl.ACL_FORMAT_NCHW, acl.ACL_FORMAT_NHWC, acl.ACL_FORMAT_ND) == (0, 1, 2)
    assert acl.ACL_ERROR_INVALID_PARAM == 100000
    assert acl.ACL_ERROR_REPEAT_INITIALIZE == 100002
    assert acl.ACL_ERROR_RT_CONTEXT_NULL == 107002
    assert acl.ACL_ERROR_RT_INVALID_HANDLE == 107017
    assert acl.ACL_ERROR_API_NOT_SUPPORT == 200001
    assert acl.ACL_UNKNOWN_RANK == 0xFFFFFFFFFFFFFFFE


def test_scripts_may_define_their_own_constants():
    # What the official samples do (constant.py): module-level names, no clash with acl's.
    ACL_MEMCPY_HOST_TO_DEVICE = 1
    ns = {}
    exec("import acl\nACL_SUCCESS = 0\nACL_ERROR_NONE = 0\nx = acl.ACL_SUCCESS", ns)
    assert ns["x"] == ns["ACL_SUCCESS"] == 0
    assert acl.ACL_MEMCPY_HOST_TO_DEVICE == ACL_MEMCPY_HOST_TO_DEVICE


def test_return_conventions(device):
    version = acl.get_version()
    assert isinstance(version, tuple) and len(version) == 4 and version[-1] == ACL_SUCCESS
    assert isinstance(acl.get_soc_name(), str)
    count, ret = acl.rt.get_device_count()
    assert ret == ACL_SUCCESS and count >= 2
    assert acl.rt.get_device() == (device, ACL_SUCCESS)
    free, total, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    assert ret == ACL_SUCCESS and isinstance(free, int) and isinstance(total, int)
    value, ret = acl.rt.get_device_info(0, acl.ACL_DEV_ATTR_AICORE_CORE_NUM)
    assert ret == ACL_SUCCESS and value >= 1
    can, ret = acl.rt.device_can_access_peer(0, 1)
    assert ret == ACL_SUCCESS and can in (0, 1)
    stream, ret = acl.rt.create_stream()
    assert isinstance(stream, int) and ret == ACL_SUCCESS
    assert isinstance(acl.rt.destroy_stream(stream), int)


def test_repeat_init_and_error_message():
    assert acl.init() == acl.ACL_ERROR_REPEAT_INITIALIZE


def test_calls_before_set_device_fail_with_context_null():
    stream, ret = acl.rt.create_stream()
    assert (stream, ret) == (0, acl.ACL_ERROR_RT_CONTEXT_NULL)
    msg = acl.get_recent_err_msg()
    assert isinstance(msg, str) and msg


@pytest.mark.parametrize("call", [
    lambda: acl.rt.set_device("0"),
    lambda: acl.rt.set_device(None),
    lambda: acl.rt.set_device(1.0),
    lambda: acl.rt.malloc("1024", 0),
    lambda: acl.rt.malloc(1024),
    lambda: acl.rt.create_context(),
    lambda: acl.rt.destroy_stream(None),
    lambda: acl.rt.destroy_stream(1.5),
    lambda: acl.rt.free([0]),
    lambda: acl.rt.synchronize_stream("stream"),
    lambda: acl.rt.memcpy(0.5, 16, 0, 16, 1),
    lambda: acl.rt.memcpy_async(0, 16, 0, 16, 1),
    lambda: acl.rt.launch_callback(42, None, 1, 0),
    lambda: acl.rt.subscribe_report("tid", 0),
    lambda: acl.util.start_thread("not callable", None),
    lambda: acl.util.bytes_to_ptr("text"),
    lambda: acl.util.bytes_to_ptr(123),
    lambda: acl.util.numpy_to_ptr([1, 2, 3]),
    lambda: acl.util.ptr_to_bytes("0", 4),
    lambda: acl.create_tensor_desc(0, "12", 2),
    lambda: acl.create_tensor_desc(0, [1, "x"], 2),
    lambda: acl.op.execute_v2("Add", 0, [], [], [], 0, 0),
    lambda: acl.mdl.load_from_file(123),
], ids=lambda c: c.__code__.co_firstlineno)
def test_wrong_argument_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


def test_made_up_handles_return_error_codes(device):
    bogus = 0xDEAD0000
    assert acl.rt.destroy_stream(bogus) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.synchronize_stream(bogus) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.stream_query(bogus)[1] == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.destroy_event(bogus) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.record_event(bogus, 0) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.synchronize_event(bogus) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.set_context(bogus) != ACL_SUCCESS
    assert acl.rt.destroy_context(bogus) != ACL_SUCCESS
    assert acl.rt.free(bogus) == acl.ACL_ERROR_INVALID_PARAM
    host = bytes(64)
    ret = acl.rt.memcpy(bogus, 64, acl.util.bytes_to_ptr(host), 64, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    assert ret == acl.ACL_ERROR_INVALID_PARAM
    ret = acl.rt.memcpy_async(bogus, 64, acl.util.bytes_to_ptr(host), 64, acl.ACL_MEMCPY_HOST_TO_DEVICE, 0)
    assert ret == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.memset(bogus, 64, 0, 64) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.launch_callback(lambda _: None, None, 1, bogus) != ACL_SUCCESS
    assert acl.rt.set_device(1000) != ACL_SUCCESS
    assert acl.get_recent_err_msg()


def test_ints_wrap_like_pyacl_k_format(device):
    # pyACL parses handles with "k": any int, modulo 2**64. -1 is a (bogus) handle, not a
    # TypeError; numpy integers work as handles too.
    assert acl.rt.destroy_stream(-1) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.synchronize_stream(np.uint64(0)) == ACL_SUCCESS
    assert acl.rt.destroy_event(1 << 70) != ACL_SUCCESS
    desc = acl.create_tensor_desc(acl.ACL_FLOAT, [2], acl.ACL_FORMAT_ND)
    assert acl.get_tensor_desc_dim_v2(desc, -1)[1] != ACL_SUCCESS
    acl.destroy_tensor_desc(desc)


def test_destroyed_handles_return_error_codes(device):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE
    event, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    assert acl.rt.destroy_event(event) == ACL_SUCCESS
    assert acl.rt.synchronize_event(event) == acl.ACL_ERROR_RT_INVALID_HANDLE
    dev, ret = acl.rt.malloc(64, 0)
    assert ret == ACL_SUCCESS
    assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.rt.free(dev) == acl.ACL_ERROR_INVALID_PARAM


def test_util_rejects_unreadable_addresses_instead_of_crashing():
    with pytest.raises(ValueError):
        acl.util.ptr_to_bytes(0, 16)
    with pytest.raises(ValueError):
        acl.util.ptr_to_bytes(8, 16)
    with pytest.raises(ValueError):
        acl.util.ptr_to_numpy(16, (4,), 11)
    with pytest.raises(ValueError):
        acl.util.ptr_to_numpy(0, (4,), 11)


def cycle(i):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    event, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    dev, ret = acl.rt.malloc(4096, 0)
    assert ret == ACL_SUCCESS
    buf = acl.create_data_buffer(dev, 4096)
    desc = acl.create_tensor_desc(acl.ACL_FLOAT, [32, 32], acl.ACL_FORMAT_ND)
    assert acl.rt.record_event(event, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_event(event) == ACL_SUCCESS
    acl.destroy_tensor_desc(desc)
    assert acl.destroy_data_buffer(buf) == ACL_SUCCESS
    assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.rt.destroy_event(event) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    host = np.full(64, i, dtype=np.int32).tobytes()
    assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(host), len(host)) == host


def test_no_leak_over_10000_create_destroy_cycles(context):
    for i in range(1000):  # warm up allocator pools and caches
        cycle(i)
    gc.collect()
    before = rss_bytes()
    for i in range(10000):
        cycle(i)
    gc.collect()
    grown = rss_bytes() - before
    # Each cycle touches ~4 KiB of device memory plus several runtime objects; a leak of any
    # of them would grow RSS by tens of MiB over 10,000 cycles.
    assert grown < 4 << 20, f"RSS grew by {grown} bytes"


def test_queries_that_work_since_the_second_session(context):
    version, ret = acl.get_version_str("runtime")
    assert ret == 0 and version == "9.0.0"
    num, ret = acl.get_version_num("runtime")
    assert ret == 0 and num == 90000000
    _, ret = acl.get_version_str("no_such_package")
    assert ret == 100000
    least, greatest, ret = acl.rt.device_get_stream_priority_range()
    assert (least, greatest, ret) == (7, 0, 0)
    status, ret = acl.rt.query_device_status(0)
    assert (status, ret) == (0, 0)
    s1, ret = acl.rt.create_stream()
    s2, _ = acl.rt.create_stream()
    id1, ret = acl.rt.stream_get_id(s1)
    id2, _ = acl.rt.stream_get_id(s2)
    assert ret == 0 and id1 != id2
    dev, ret = acl.rt.malloc(64, 0)
    assert acl.rt.memset_d32(dev, 64, 0x01020304, 16) == 0
    out = np.zeros(16, dtype=np.uint32)
    assert acl.rt.memcpy(out.ctypes.data, 64, dev, 64, 2) == 0
    assert (out == 0x01020304).all()
    assert acl.rt.mem_flush(dev, 64) == 0
    assert acl.rt.free(dev) == 0
    for s in (s1, s2):
        assert acl.rt.destroy_stream(s) == 0


def test_notify_orders_two_streams_and_sys_params(context):
    s1, ret = acl.rt.create_stream()
    assert ret == 0
    s2, _ = acl.rt.create_stream()
    notify, ret = acl.rt.create_notify(0)
    assert ret == 0 and notify != 0
    nid, ret = acl.rt.get_notify_id(notify)
    assert ret == 0
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset_async(dev, 64, 7, 64, s1) == 0
    assert acl.rt.record_notify(notify, s1) == 0
    assert acl.rt.wait_and_reset_notify(notify, s2, 0) == 0
    out = np.zeros(64, dtype=np.uint8)
    host, _ = acl.rt.malloc_host(64)
    assert acl.rt.memcpy_async(host, 64, dev, 64, 2, s2) == 0
    assert acl.rt.synchronize_stream(s2) == 0
    out[:] = np.frombuffer(acl.util.ptr_to_bytes(host, 64), dtype=np.uint8)
    assert (out == 7).all()
    assert acl.rt.notify_batch_reset([notify]) == 0
    assert acl.rt.destroy_notify(notify) == 0
    assert acl.rt.destroy_notify(notify) == 107017  # ACL_ERROR_RT_INVALID_HANDLE
    # Runtime parameters: process default 0, the context reads it until it sets its own.
    assert acl.rt.get_sys_param_opt(0) == (0, 0)
    assert acl.rt.set_sys_param_opt(0, 1) == 0
    assert acl.rt.ctx_get_sys_param_opt(0) == (1, 0)
    assert acl.rt.ctx_set_sys_param_opt(0, 0) == 0
    assert acl.rt.ctx_get_sys_param_opt(0) == (0, 0)
    assert acl.rt.set_sys_param_opt(0, 0) == 0
    assert acl.rt.free(dev) == 0
    assert acl.rt.free_host(host) == 0
    for s in (s1, s2):
        assert acl.rt.destroy_stream(s) == 0


def test_value_write_releases_a_value_wait_on_another_stream(context):
    s1, _ = acl.rt.create_stream()
    s2, _ = acl.rt.create_stream()
    flag, ret = acl.rt.malloc(8, 0)
    assert ret == 0
    assert acl.rt.memset(flag, 8, 0, 8) == 0
    data, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset_async(data, 64, 3, 64, s1) == 0
    assert acl.rt.value_write(flag, 7, 0, s1) == 0
    assert acl.rt.value_wait(flag, 7, 1, s2) == 0  # ACL_STREAM_WAIT_VALUE_EQ
    out = np.zeros(64, dtype=np.uint8)
    assert acl.rt.synchronize_stream(s2) == 0
    assert acl.rt.memcpy(out.ctypes.data, 64, data, 64, 2) == 0
    assert (out == 3).all()
    assert acl.rt.value_wait(flag, 7, 9, s2) == 100000  # bad flag: ACL_ERROR_INVALID_PARAM
    for p in (flag, data):
        assert acl.rt.free(p) == 0
    for s in (s1, s2):
        assert acl.rt.destroy_stream(s) == 0


def test_op_execute_timeouts(device):
    assert acl.rt.set_op_execute_time_out(5) == 0
    assert acl.rt.set_op_execute_timeout_v2(0) == (1091000000, 0)  # 0: the largest limit, in us
    assert acl.rt.set_op_execute_timeout_v2(250000) == (250000, 0)
    assert acl.rt.set_op_execute_time_out(0) == 0


def test_virtual_memory_maps_physical_memory(device):
    prop = {"handleType": 0, "allocationType": 0, "memAttr": 1, "location": {"id": 0, "type": 1}}
    gran, ret = acl.rt.mem_get_allocation_granularity(prop, 0)
    assert ret == 0 and gran > 0
    va, ret = acl.rt.reserve_mem_address(gran, 0, 0, 0)
    assert ret == 0 and va != 0
    handle, ret = acl.rt.malloc_physical(gran, prop, 0)
    assert ret == 0 and handle != 0
    assert acl.rt.map_mem(va, gran, 0, handle, 0) == 0
    data = np.arange(256, dtype=np.int32)
    assert acl.rt.memcpy(va, gran, data.ctypes.data, data.nbytes, 1) == 0
    out = np.zeros_like(data)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, va, out.nbytes, 2) == 0
    assert (out == data).all()
    assert acl.rt.free_physical(handle) != 0  # still mapped
    assert acl.rt.unmap_mem(va) == 0
    assert acl.rt.free_physical(handle) == 0
    assert acl.rt.release_mem_address(va) == 0
    with pytest.raises(TypeError):
        acl.rt.malloc_physical(gran, "not a dict", 0)


def test_app_log_prints_cann_lines_naming_the_python_caller(capfd, monkeypatch):
    monkeypatch.delenv("ASCEND_GLOBAL_LOG_LEVEL", raising=False)
    monkeypatch.delenv("ASCEND_SLOG_PRINT_TO_STDOUT", raising=False)
    acl.app_log(3, "model loaded: 42")
    acl.app_log(1, "below the default level")
    err = capfd.readouterr().err
    assert err.startswith("[ERROR] APP(")
    assert "test_api.py:" in err
    assert "test_app_log_prints_cann_lines_naming_the_python_caller: model loaded: 42\n" in err
    assert "below the default level" not in err
    monkeypatch.setenv("ASCEND_GLOBAL_LOG_LEVEL", "0")
    acl.app_log(0, "debug shown")
    assert "[DEBUG] APP(" in capfd.readouterr().err
    acl.app_log(9, "bad level")
    assert capfd.readouterr().err == ""
    assert "logLevel 9" in acl.get_recent_err_msg()


def test_device_limits_round_trip_and_refuse_simt():
    simd_printf_fifo, simt_stack = 3, 0  # ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, _SIMT_STACK_SIZE
    assert acl.rt.device_get_limit(simd_printf_fifo) == (1 << 20, ACL_SUCCESS)
    try:
        assert acl.rt.device_set_limit(simd_printf_fifo, 4095) == ACL_SUCCESS
        assert acl.rt.device_get_limit(simd_printf_fifo) == (4096, ACL_SUCCESS)
        assert acl.rt.device_set_limit(simd_printf_fifo, 10) == 107000  # ACL_ERROR_RT_PARAM_INVALID
    finally:
        assert acl.rt.device_set_limit(simd_printf_fifo, 1 << 20) == ACL_SUCCESS
    _, ret = acl.rt.device_get_limit(simt_stack)
    assert ret == 207000  # ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "SIMT" in acl.get_recent_err_msg()


def test_devices_topo_is_hccs_between_two_devices():
    assert acl.rt.get_devices_topo(0, 1) == (0x01, ACL_SUCCESS)  # ACL_RT_DEVS_TOPOLOGY_HCCS
    _, ret = acl.rt.get_devices_topo(0, 0)
    assert ret == 100000  # ACL_ERROR_INVALID_PARAM
    assert "two devices" in acl.get_recent_err_msg()


def test_res_limits_follow_cann_precedence(device):
    cube, vector = 0, 1  # ACL_RT_DEV_RES_CUBE_CORE, ACL_RT_DEV_RES_VECTOR_CORE
    cores, ret = acl.rt.get_device_res_limit(device, vector)
    assert ret == ACL_SUCCESS and cores >= 1
    stream, _ = acl.rt.create_stream()
    try:
        assert acl.rt.set_device_res_limit(device, cube, 1) == ACL_SUCCESS
        assert acl.rt.get_device_res_limit(device, cube) == (1, ACL_SUCCESS)
        assert acl.rt.get_stream_res_limit(stream, cube) == (1, ACL_SUCCESS)
        assert acl.rt.set_stream_res_limit(stream, vector, 1) == ACL_SUCCESS
        assert acl.rt.get_res_in_current_thread(vector) == (cores, ACL_SUCCESS)
        assert acl.rt.use_stream_res_in_current_thread(stream) == ACL_SUCCESS
        assert acl.rt.get_res_in_current_thread(vector) == (1, ACL_SUCCESS)
        assert acl.rt.unuse_stream_res_in_current_thread(stream) == ACL_SUCCESS
        assert acl.rt.reset_stream_res_limit(stream) == ACL_SUCCESS
        assert acl.rt.get_stream_res_limit(stream, vector) == (cores, ACL_SUCCESS)
        assert acl.rt.set_device_res_limit(device, 7, 1) == 100000  # ACL_ERROR_INVALID_PARAM
        assert "aclrtDevResLimitType" in acl.get_recent_err_msg()
    finally:
        assert acl.rt.reset_device_res_limit(device) == ACL_SUCCESS
        assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert acl.rt.get_device_res_limit(device, cube) == (cores, ACL_SUCCESS)


def test_stream_and_event_resources_count_down_and_back(device):
    streams, ret = acl.rt.get_stream_available_num()
    assert ret == ACL_SUCCESS and 0 < streams < 1984
    events, ret = acl.rt.get_event_avail_num()
    assert ret == ACL_SUCCESS and 0 < events <= 65536
    stream, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    assert acl.rt.get_stream_available_num() == (streams - 1, ACL_SUCCESS)
    assert acl.rt.get_event_avail_num() == (events - 1, ACL_SUCCESS)
    assert acl.rt.destroy_event(event) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert acl.rt.get_stream_available_num() == (streams, ACL_SUCCESS)
    assert acl.rt.get_event_avail_num() == (events, ACL_SUCCESS)


def test_profiling_session_writes_a_trace_with_the_stamps(device, tmp_path):
    import json
    assert acl.prof.init(str(tmp_path)) == ACL_SUCCESS
    config = acl.prof.create_config([0], 0xFF, 0, 0x0001 | 0x0002)  # ACL_AICORE_NONE; ACL_API | TASK_TIME
    assert config != 0, acl.get_recent_err_msg()
    assert acl.prof.start(config) == ACL_SUCCESS
    stamp = acl.prof.create_stamp()
    assert acl.prof.set_stamp_trace_message(stamp, "resize", 6) == ACL_SUCCESS
    assert acl.prof.push(stamp) == ACL_SUCCESS
    assert acl.rt.synchronize_device() == ACL_SUCCESS
    assert acl.prof.pop() == ACL_SUCCESS
    range_id, ret = acl.prof.range_start(stamp)
    assert ret == ACL_SUCCESS and acl.prof.range_stop(range_id) == ACL_SUCCESS
    assert acl.prof.stop(config) == ACL_SUCCESS
    assert acl.prof.stop(config) == 100043  # ACL_ERROR_PROF_NOT_RUN
    acl.prof.destroy_stamp(stamp)
    assert acl.prof.destroy_config(config) == ACL_SUCCESS
    assert acl.prof.finalize() == ACL_SUCCESS
    (trace,) = list(tmp_path.iterdir())
    names = [e.get("name") for e in json.loads(trace.read_text())["traceEvents"]]
    assert names.count("resize") == 2 and "aclrtSynchronizeDevice" in names
    assert acl.prof.create_config([9], 0xFF, 0, 1) == 0
    assert "aclprofCreateConfig" in acl.get_recent_err_msg()


def test_device_utilization_rate_has_pyacl_keys(device):
    assert acl.rt.synchronize_device() == ACL_SUCCESS
    info, ret = acl.rt.get_device_utilization_rate(device)
    assert ret == ACL_SUCCESS
    assert set(info) == {"cube_utilization", "vector_utilization", "aicpu_utilization",
                         "memory_utilization", "utilization_extend"}
    assert 0 <= info["cube_utilization"] <= 100 and info["memory_utilization"] == -1
    _, ret = acl.rt.get_device_utilization_rate(99)
    assert ret != ACL_SUCCESS

"""The runtime examples of the pyACL documentation, as close to verbatim as the placeholders
allow ("# ......" parts filled with real work so that the results can be checked).

Sources: the pyACL application development guide, sections "Runtime resource allocation and
release", "Stream management" (single thread / multiple threads, multiple streams),
"Synchronous waiting" (event, stream, stream-to-stream via event, device) and
acl.rt.launch_callback.
"""
import threading

import numpy as np

import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_CALLBACK_BLOCK = 1


def to_device(arr, stream):
    """Copies a numpy array into new device memory on `stream`; returns the device pointer."""
    dev, ret = acl.rt.malloc(arr.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    host = arr.tobytes()
    ret = acl.rt.memcpy_async(dev, arr.nbytes, acl.util.bytes_to_ptr(host), arr.nbytes,
                              ACL_MEMCPY_HOST_TO_DEVICE, stream)
    assert ret == ACL_SUCCESS
    return dev


def from_device(dev, like):
    out = np.empty_like(like)
    ptr, _ = acl.util.numpy_contiguous_to_ptr(out)
    ret = acl.rt.memcpy(ptr, out.nbytes, dev, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST)
    assert ret == ACL_SUCCESS
    return out


def test_runtime_resource_allocation_and_release():
    device_id = 0
    # ======Runtime resource allocation======
    # 1. Specify the compute device.
    ret = acl.rt.set_device(device_id)
    assert ret == ACL_SUCCESS

    # 2. Explicitly create a stream.
    # It keeps asynchronous operations in the order the application issues them.
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS and stream != 0
    # ======Runtime resource allocation======

    data = np.arange(256, dtype=np.int32)
    dev = to_device(data, stream)
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    np.testing.assert_array_equal(from_device(dev, data), data)
    assert acl.rt.free(dev) == ACL_SUCCESS

    # ======Runtime resource release======
    ret = acl.rt.destroy_stream(stream)
    assert ret == ACL_SUCCESS
    ret = acl.rt.reset_device(device_id)
    assert ret == ACL_SUCCESS
    # ======Runtime resource release======


def test_default_context_and_default_stream():
    # set_device implicitly creates the default context and the default stream; pass 0 to use
    # the default stream.
    device_id = 0
    ret = acl.rt.set_device(device_id)
    assert ret == ACL_SUCCESS
    context, ret = acl.rt.get_context()
    assert ret == ACL_SUCCESS and context != 0
    default_stream, ret = acl.rt.ctx_get_current_default_stream()
    assert ret == ACL_SUCCESS and default_stream != 0
    run_mode, ret = acl.rt.get_run_mode()
    assert ret == ACL_SUCCESS and run_mode in (acl.ACL_DEVICE, acl.ACL_HOST)

    data = np.linspace(0.0, 1.0, 1000, dtype=np.float32)
    dev = to_device(data, 0)
    assert acl.rt.synchronize_stream(0) == ACL_SUCCESS
    np.testing.assert_array_equal(from_device(dev, data), data)

    assert acl.rt.free(dev) == ACL_SUCCESS
    # The default context is released by reset_device, never by destroy_context.
    assert acl.rt.destroy_context(context) != ACL_SUCCESS
    ret = acl.rt.reset_device(device_id)
    assert ret == ACL_SUCCESS


def test_context_switching_walk_through():
    # Two contexts on two devices in one thread; set_context switches the thread between them
    # (and the device follows the context).
    ret = acl.rt.set_device(0)
    assert ret == ACL_SUCCESS
    context1, ret = acl.rt.create_context(0)
    assert ret == ACL_SUCCESS
    stream1, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS

    ret = acl.rt.set_device(1)
    assert ret == ACL_SUCCESS
    context2, ret = acl.rt.create_context(1)
    assert ret == ACL_SUCCESS
    stream2, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    current, ret = acl.rt.get_context()
    assert (current, ret) == (context2, ACL_SUCCESS)
    assert acl.rt.get_device() == (1, ACL_SUCCESS)

    a = np.arange(64, dtype=np.int64)
    b = a * 3
    dev_b = to_device(b, stream2)

    # Switch back to context1: work goes to stream1, on device 0.
    ret = acl.rt.set_context(context1)
    assert ret == ACL_SUCCESS
    assert acl.rt.get_context() == (context1, ACL_SUCCESS)
    assert acl.rt.get_device() == (0, ACL_SUCCESS)
    dev_a = to_device(a, stream1)
    # A stream of the other context cannot take work while context1 is current ...
    host = b.tobytes()
    ret = acl.rt.memcpy_async(dev_b, b.nbytes, acl.util.bytes_to_ptr(host), b.nbytes,
                              ACL_MEMCPY_HOST_TO_DEVICE, stream2)
    assert ret == acl.ACL_ERROR_RT_STREAM_CONTEXT
    # ... but any stream can be waited for from the host.
    assert acl.rt.synchronize_stream(stream2) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream1) == ACL_SUCCESS
    np.testing.assert_array_equal(from_device(dev_a, a), a)
    assert acl.rt.free(dev_a) == ACL_SUCCESS

    ret = acl.rt.set_context(context2)
    assert ret == ACL_SUCCESS
    np.testing.assert_array_equal(from_device(dev_b, b), b)
    assert acl.rt.free(dev_b) == ACL_SUCCESS

    # Release: each stream in its own context.
    assert acl.rt.destroy_stream(stream2) == ACL_SUCCESS
    assert acl.rt.destroy_context(context2) == ACL_SUCCESS
    assert acl.rt.set_context(context1) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream1) == ACL_SUCCESS
    assert acl.rt.destroy_context(context1) == ACL_SUCCESS
    assert acl.rt.reset_device(1) == ACL_SUCCESS
    assert acl.rt.reset_device(0) == ACL_SUCCESS


def test_single_thread_multiple_streams(device):
    data_1 = np.arange(1024, dtype=np.float32)
    data_2 = -np.arange(2048, dtype=np.float32)

    stream1, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    # Call an API that issues work, e.g. an asynchronous copy, on stream1.
    dev_1 = to_device(data_1, stream1)

    stream2, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    # Call an API that issues work on stream2.
    dev_2 = to_device(data_2, stream2)

    # Stream synchronization.
    ret = acl.rt.synchronize_stream(stream1)
    assert ret == ACL_SUCCESS
    ret = acl.rt.synchronize_stream(stream2)
    assert ret == ACL_SUCCESS
    np.testing.assert_array_equal(from_device(dev_1, data_1), data_1)
    np.testing.assert_array_equal(from_device(dev_2, data_2), data_2)
    assert acl.rt.free(dev_1) == ACL_SUCCESS
    assert acl.rt.free(dev_2) == ACL_SUCCESS

    # Release resources.
    ret = acl.rt.destroy_stream(stream2)
    assert ret == ACL_SUCCESS
    ret = acl.rt.destroy_stream(stream1)
    assert ret == ACL_SUCCESS


def test_multiple_threads_multiple_streams():
    results = {}
    lock = threading.Lock()

    def run_thread():
        device_id = 0

        # Specify the compute device.
        ret = acl.rt.set_device(device_id)
        assert ret == ACL_SUCCESS
        # Explicitly create a stream.
        stream, ret = acl.rt.create_stream()
        assert ret == ACL_SUCCESS

        # Call APIs that issue work.
        tid = threading.get_ident()
        data = np.full(4096, tid % 1000, dtype=np.int32)
        dev = to_device(data, stream)
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        with lock:
            results[tid] = np.array_equal(from_device(dev, data), data)
        assert acl.rt.free(dev) == ACL_SUCCESS

        # Release resources.
        ret = acl.rt.destroy_stream(stream)
        assert ret == ACL_SUCCESS
        assert acl.rt.reset_device(device_id) == ACL_SUCCESS

    # Create 2 threads, each creating its own stream.
    thread_id1, ret = acl.util.start_thread(run_thread, None)
    assert ret == ACL_SUCCESS
    thread_id2, ret = acl.util.start_thread(run_thread, None)
    assert ret == ACL_SUCCESS
    # Call stop_thread explicitly to make sure the threads end.
    ret = acl.util.stop_thread(thread_id1)
    assert ret == ACL_SUCCESS
    ret = acl.util.stop_thread(thread_id2)
    assert ret == ACL_SUCCESS

    assert set(results) == {thread_id1, thread_id2}
    assert all(results.values())


def test_event_synchronization(device):
    # Create an event.
    event, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS

    # Create a stream.
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS

    data = np.arange(100000, dtype=np.float64)
    dev = to_device(data, stream)

    # Add an event at the end of the stream.
    ret = acl.rt.record_event(event, stream)
    assert ret == ACL_SUCCESS

    # Block the application until the event occurs, i.e. the stream's work is done.
    ret = acl.rt.synchronize_event(event)
    assert ret == ACL_SUCCESS
    status, ret = acl.rt.query_event_status(event)
    assert (status, ret) == (acl.ACL_EVENT_RECORDED_STATUS_COMPLETE, ACL_SUCCESS)
    np.testing.assert_array_equal(from_device(dev, data), data)
    assert acl.rt.free(dev) == ACL_SUCCESS

    # Destroy the resources explicitly.
    ret = acl.rt.destroy_stream(stream)
    assert ret == ACL_SUCCESS
    ret = acl.rt.destroy_event(event)
    assert ret == ACL_SUCCESS


def test_stream_synchronization(device):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    data = np.random.default_rng(1).integers(0, 255, size=1 << 16, dtype=np.uint8)
    dev = to_device(data, stream)
    dev2, ret = acl.rt.malloc(data.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    ret = acl.rt.memcpy_async(dev2, data.nbytes, dev, data.nbytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream)
    assert ret == ACL_SUCCESS

    # Block until every task of the stream is done.
    ret = acl.rt.synchronize_stream(stream)
    assert ret == ACL_SUCCESS
    status, ret = acl.rt.stream_query(stream)
    assert (status, ret) == (acl.ACL_STREAM_STATUS_COMPLETE, ACL_SUCCESS)
    np.testing.assert_array_equal(from_device(dev2, data), data)

    assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.rt.free(dev2) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_stream_to_stream_synchronization_through_an_event(device):
    # Create an event.
    event, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS

    # Create two streams.
    s1, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    s2, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS

    data = np.arange(1 << 18, dtype=np.int32)
    dev = to_device(data, s1)
    copy, ret = acl.rt.malloc(data.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS

    # Add an event at the end of s1.
    ret = acl.rt.record_event(event, s1)
    assert ret == ACL_SUCCESS

    # Block s2 until the event occurs, i.e. until s1 is done; then s2 continues.
    ret = acl.rt.stream_wait_event(s2, event)
    assert ret == ACL_SUCCESS
    ret = acl.rt.memcpy_async(copy, data.nbytes, dev, data.nbytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s2)
    assert ret == ACL_SUCCESS

    ret = acl.rt.synchronize_stream(s1)
    assert ret == ACL_SUCCESS
    ret = acl.rt.synchronize_stream(s2)
    assert ret == ACL_SUCCESS
    np.testing.assert_array_equal(from_device(copy, data), data)
    assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.rt.free(copy) == ACL_SUCCESS

    # Destroy the resources explicitly.
    ret = acl.rt.destroy_stream(s2)
    assert ret == ACL_SUCCESS
    ret = acl.rt.destroy_stream(s1)
    assert ret == ACL_SUCCESS
    ret = acl.rt.destroy_event(event)
    assert ret == ACL_SUCCESS


def test_device_synchronization(device):
    streams = []
    devs = []
    data = np.arange(50000, dtype=np.float32)
    for _ in range(3):
        stream, ret = acl.rt.create_stream()
        assert ret == ACL_SUCCESS
        streams.append(stream)
        devs.append(to_device(data, stream))

    # Block until every stream of the device is done.
    ret = acl.rt.synchronize_device()
    assert ret == ACL_SUCCESS
    for stream, dev in zip(streams, devs):
        assert acl.rt.stream_query(stream) == (acl.ACL_STREAM_STATUS_COMPLETE, ACL_SUCCESS)
        np.testing.assert_array_equal(from_device(dev, data), data)
        assert acl.rt.free(dev) == ACL_SUCCESS
        assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_event_elapsed_time(device):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    start, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    end, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    assert acl.rt.record_event(start, stream) == ACL_SUCCESS
    dev = to_device(np.zeros(1 << 20, dtype=np.uint8), stream)
    assert acl.rt.record_event(end, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_event(end) == ACL_SUCCESS
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == ACL_SUCCESS
    assert isinstance(ms, float) and ms >= 0.0
    assert acl.rt.free(dev) == ACL_SUCCESS
    for e in (start, end):
        assert acl.rt.destroy_event(e) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_callback(context):
    # The flow of acl.rt.launch_callback:
    # 1. a new thread loops on acl.rt.process_report;
    # 2. acl.rt.subscribe_report binds that thread to the stream;
    # 3. asynchronous work is issued on the stream;
    # 4. acl.rt.launch_callback adds a callback task;
    # 5. acl.rt.unsubscribe_report unbinds the thread once the work is done.
    calls = []
    run_flag = [True]
    second_done = threading.Event()

    def callback_thr_func(args_list):
        ctx, timeout = args_list
        ret = acl.rt.set_context(ctx)
        assert ret == ACL_SUCCESS
        while run_flag[0]:
            acl.rt.process_report(timeout)

    def callback_func(user_data):
        calls.append((threading.get_ident(), list(user_data)))
        if user_data[0] == "second":
            second_done.set()

    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    timeout = 50
    thr_id, ret = acl.util.start_thread(callback_thr_func, [context, timeout])
    assert ret == ACL_SUCCESS

    ret = acl.rt.subscribe_report(thr_id, stream)
    assert ret == ACL_SUCCESS

    data = np.arange(1000, dtype=np.int32)
    dev = to_device(data, stream)
    ret = acl.rt.launch_callback(callback_func, ["first", 1], ACL_CALLBACK_BLOCK, stream)
    assert ret == ACL_SUCCESS
    ret = acl.rt.launch_callback(callback_func, ["second", 2], 0, stream)
    assert ret == ACL_SUCCESS

    ret = acl.rt.synchronize_stream(stream)
    assert ret == ACL_SUCCESS
    # A non-blocking callback does not hold the stream: wait for it before unsubscribing.
    assert second_done.wait(30)
    ret = acl.rt.unsubscribe_report(thr_id, stream)
    assert ret == ACL_SUCCESS
    run_flag[0] = False
    ret = acl.util.stop_thread(thr_id)
    assert ret == ACL_SUCCESS

    # Both ran, in stream order, on the subscribed thread.
    assert calls == [(thr_id, ["first", 1]), (thr_id, ["second", 2])]
    np.testing.assert_array_equal(from_device(dev, data), data)
    assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_host_func_on_a_subscribed_thread(context):
    # acl.rt.subscribe_host_func binds a thread looping on acl.rt.process_host_func to the
    # stream; host functions launched on it then run there, in stream order.
    calls = []
    run_flag = [True]

    def serve(args_list):
        ctx, timeout = args_list
        assert acl.rt.set_context(ctx) == ACL_SUCCESS
        while run_flag[0]:
            acl.rt.process_host_func(timeout)

    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    thr_id, ret = acl.util.start_thread(serve, [context, 50])
    assert ret == ACL_SUCCESS
    assert acl.rt.subscribe_host_func(thr_id, stream) == ACL_SUCCESS
    for i in range(3):
        ret = acl.rt.launch_host_func(stream, lambda arg: calls.append((threading.get_ident(), arg)), i)
        assert ret == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert acl.rt.unsubscribe_host_func(thr_id, stream) == ACL_SUCCESS
    run_flag[0] = False
    assert acl.util.stop_thread(thr_id) == ACL_SUCCESS
    assert calls == [(thr_id, 0), (thr_id, 1), (thr_id, 2)]
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS

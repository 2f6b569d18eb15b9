"""Threads: the GIL is released while the runtime blocks, Python threads each with their own
context and streams, acl.util threads, and threading.Thread as a callback thread."""
import faulthandler
import sys
import threading

import numpy as np
import pytest

import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_CALLBACK_BLOCK = 1


class ReportThread:
    """A threading.Thread that serves a stream's callbacks (subscribe_report target)."""

    def __init__(self, context):
        self.running = True
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(context,))
        self.thread.start()
        assert self.ready.wait(30)

    def _run(self, context):
        assert acl.rt.set_context(context) == ACL_SUCCESS
        self.ready.set()
        while self.running:
            acl.rt.process_report(20)

    @property
    def ident(self):
        return self.thread.ident

    def stop(self):
        self.running = False
        self.thread.join(30)
        assert not self.thread.is_alive()


def test_gil_is_released_while_synchronize_stream_blocks(context):
    """The stream holds a blocking callback that waits for a second Python thread; that
    thread can only run if synchronize_stream (and process_report) dropped the GIL."""
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    reporter = ReportThread(context)
    assert acl.rt.subscribe_report(reporter.ident, stream) == ACL_SUCCESS

    released = threading.Event()
    main_blocking = threading.Event()
    callback_saw_release = []
    ticks = [0]

    def blocking_callback(_):
        callback_saw_release.append(released.wait(20))

    def ticker():
        # Pure Python work, done while the main thread sits in synchronize_stream: it needs
        # the GIL the whole time.
        assert main_blocking.wait(20)
        while ticks[0] < 200000:
            ticks[0] += 1
        released.set()

    assert acl.rt.launch_callback(blocking_callback, None, ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
    t = threading.Thread(target=ticker)
    t.start()
    # Were the GIL kept, nothing could run again: turn that deadlock into a failed run.
    faulthandler.dump_traceback_later(120, exit=True)
    main_blocking.set()
    ret = acl.rt.synchronize_stream(stream)
    faulthandler.cancel_dump_traceback_later()
    t.join()
    assert ret == ACL_SUCCESS
    assert callback_saw_release == [True]
    assert ticks[0] == 200000

    assert acl.rt.unsubscribe_report(reporter.ident, stream) == ACL_SUCCESS
    reporter.stop()
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_eight_python_threads_with_their_own_contexts_and_streams():
    n_threads, n_streams, n = 8, 2, 1 << 14
    errors = []
    barrier = threading.Barrier(n_threads)

    def worker(i):
        try:
            device_id = i % 2
            assert acl.rt.set_device(device_id) == ACL_SUCCESS
            ctx, ret = acl.rt.create_context(device_id)
            assert ret == ACL_SUCCESS
            barrier.wait(30)
            streams = []
            for _ in range(n_streams):
                s, ret = acl.rt.create_stream()
                assert ret == ACL_SUCCESS
                streams.append(s)
            for k, s in enumerate(streams):
                data = (np.arange(n, dtype=np.int64) * (i + 1) + k)
                host = data.tobytes()
                a, ret = acl.rt.malloc(data.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
                assert ret == ACL_SUCCESS
                b, ret = acl.rt.malloc(data.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
                assert ret == ACL_SUCCESS
                assert acl.rt.memcpy_async(a, data.nbytes, acl.util.bytes_to_ptr(host), data.nbytes,
                                           ACL_MEMCPY_HOST_TO_DEVICE, s) == ACL_SUCCESS
                assert acl.rt.memcpy_async(b, data.nbytes, a, data.nbytes,
                                           ACL_MEMCPY_DEVICE_TO_DEVICE, s) == ACL_SUCCESS
                assert acl.rt.synchronize_stream(s) == ACL_SUCCESS
                out = np.empty_like(data)
                assert acl.rt.memcpy(out.ctypes.data, out.nbytes, b, out.nbytes,
                                     ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
                np.testing.assert_array_equal(out, data)
                assert acl.rt.get_context() == (ctx, ACL_SUCCESS)
                for p in (a, b):
                    assert acl.rt.free(p) == ACL_SUCCESS
            for s in streams:
                assert acl.rt.destroy_stream(s) == ACL_SUCCESS
            assert acl.rt.destroy_context(ctx) == ACL_SUCCESS
            assert acl.rt.reset_device(device_id) == ACL_SUCCESS
        except BaseException as e:  # collected and reported by the main thread
            errors.append((i, repr(e)))
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads)
    assert errors == []


def test_start_thread_calls_fn_with_args_or_without():
    seen = []
    tid, ret = acl.util.start_thread(lambda args: seen.append(("args", args)), [1, "two"])
    assert ret == ACL_SUCCESS and tid != 0
    assert acl.util.stop_thread(tid) == ACL_SUCCESS
    tid, ret = acl.util.start_thread(lambda: seen.append(("none",)), None)
    assert ret == ACL_SUCCESS
    assert acl.util.stop_thread(tid) == ACL_SUCCESS
    assert seen == [("args", [1, "two"]), ("none",)]


def test_start_thread_runs_on_a_new_pthread_whose_id_it_returns():
    ids = []
    tid, ret = acl.util.start_thread(lambda _: ids.append(threading.get_ident()), ())
    assert ret == ACL_SUCCESS
    assert acl.util.stop_thread(tid) == ACL_SUCCESS
    assert ids == [tid] and tid != threading.get_ident()


def test_stop_thread_raises_when_fn_raised():
    def fails(_):
        raise ValueError("boom in thread")

    tid, ret = acl.util.start_thread(fails, [])
    assert ret == ACL_SUCCESS
    with pytest.raises(RuntimeError, match="boom in thread"):
        acl.util.stop_thread(tid)


def test_stop_thread_of_an_unknown_id_returns_an_error():
    assert acl.util.stop_thread(12345) != ACL_SUCCESS


def test_new_thread_has_no_context_until_set_context(context):
    seen = []

    def body(ctx):
        seen.append(acl.rt.create_stream()[1])  # no context yet
        seen.append(acl.rt.set_context(ctx))
        s, ret = acl.rt.create_stream()
        seen.append(ret)
        seen.append(acl.rt.destroy_stream(s))

    tid, ret = acl.util.start_thread(body, context)
    assert ret == ACL_SUCCESS
    assert acl.util.stop_thread(tid) == ACL_SUCCESS
    assert seen == [acl.ACL_ERROR_RT_CONTEXT_NULL, ACL_SUCCESS, ACL_SUCCESS, ACL_SUCCESS]


def test_callbacks_run_in_stream_order_on_a_threading_thread(context):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    reporter = ReportThread(context)
    assert acl.rt.subscribe_report(reporter.ident, stream) == ACL_SUCCESS
    order = []
    for i in range(20):
        assert acl.rt.launch_callback(lambda d: order.append((threading.get_ident(), d)), i,
                                      ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert order == [(reporter.ident, i) for i in range(20)]
    assert acl.rt.unsubscribe_report(reporter.ident, stream) == ACL_SUCCESS
    reporter.stop()
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_callback_exception_is_reported_not_fatal(context, monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_value))
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    reporter = ReportThread(context)
    assert acl.rt.subscribe_report(reporter.ident, stream) == ACL_SUCCESS
    after = []

    def bad(_):
        raise KeyError("callback failure")

    assert acl.rt.launch_callback(bad, None, ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
    assert acl.rt.launch_callback(after.append, "ok", ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert after == ["ok"]
    assert len(reported) == 1 and isinstance(reported[0], KeyError)
    assert acl.rt.unsubscribe_report(reporter.ident, stream) == ACL_SUCCESS
    reporter.stop()
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_launch_callback_without_subscriber_fails(context):
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    ret = acl.rt.launch_callback(lambda _: None, None, ACL_CALLBACK_BLOCK, stream)
    assert ret == acl.ACL_ERROR_RT_STREAM_NO_CB_REG
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS

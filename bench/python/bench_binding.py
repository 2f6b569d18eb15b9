#!/usr/bin/env python3
"""Per-call overhead of the module `acl` next to the same calls from C++, in one process.

Loop: acl.rt.memcpy_async (pinned host -> device, small copy) + acl.rt.synchronize_stream.
The C++ loop (libacl_bench_loops.so, loaded with ctypes) makes the same two C calls on the
same stream and buffers. Binding overhead per call = (python - c++) / 2.

Usage:
  PYTHONPATH=<build>/python/dist-packages /usr/bin/python3 bench/python/bench_binding.py \
      --loops <build>/bench/python/libacl_bench_loops.so
"""
import argparse
import ctypes
import json
import platform
import statistics
import time

import acl

ACL_MEMCPY_HOST_TO_DEVICE = 1


def check(ret, what):
    if ret != 0:
        raise SystemExit(f"{what} failed: {ret} {acl.get_recent_err_msg()}")


def py_memcpy_sync(dst, dst_max, src, nbytes, stream, iterations):
    memcpy_async, synchronize = acl.rt.memcpy_async, acl.rt.synchronize_stream
    t0 = time.perf_counter_ns()
    for _ in range(iterations):
        memcpy_async(dst, dst_max, src, nbytes, ACL_MEMCPY_HOST_TO_DEVICE, stream)
        synchronize(stream)
    return (time.perf_counter_ns() - t0) / iterations


def py_get_device(iterations):
    get_device = acl.rt.get_device
    t0 = time.perf_counter_ns()
    for _ in range(iterations):
        get_device()
    return (time.perf_counter_ns() - t0) / iterations


def py_empty_loop(iterations):
    t0 = time.perf_counter_ns()
    for _ in range(iterations):
        pass
    return (time.perf_counter_ns() - t0) / iterations


def interleaved(rounds, fns):
    """Runs the measurements round-robin, so load changes on the machine hit all of them alike;
    returns (best, median) per measurement."""
    samples = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            samples[name].append(fn())
    return {name: (min(v), statistics.median(v)) for name, v in samples.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--loops", required=True, help="path of libacl_bench_loops.so")
    ap.add_argument("--iterations", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--bytes", type=int, default=64)
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()

    lib = ctypes.CDLL(args.loops)
    lib.loop_memcpy_async_sync.restype = ctypes.c_double
    lib.loop_memcpy_async_sync.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
                                           ctypes.c_int, ctypes.c_void_p, ctypes.c_int64]
    lib.loop_get_device.restype = ctypes.c_double
    lib.loop_get_device.argtypes = [ctypes.c_int64]

    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "acl.rt.set_device")
    stream, ret = acl.rt.create_stream()
    check(ret, "acl.rt.create_stream")
    dev, ret = acl.rt.malloc(args.bytes, 0)
    check(ret, "acl.rt.malloc")
    host, ret = acl.rt.malloc_host(args.bytes)
    check(ret, "acl.rt.malloc_host")

    n = args.iterations
    # Warm up both paths (thread wake-ups, caches, allocator).
    py_memcpy_sync(dev, args.bytes, host, args.bytes, stream, n // 10)
    lib.loop_memcpy_async_sync(dev, args.bytes, host, args.bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream, n // 10)

    results = interleaved(args.rounds, {
        "memcpy_async+synchronize_stream python ns": lambda: py_memcpy_sync(
            dev, args.bytes, host, args.bytes, stream, n),
        "memcpy_async+synchronize_stream c++ ns": lambda: lib.loop_memcpy_async_sync(
            dev, args.bytes, host, args.bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream, n),
        # A zero-byte copy enqueues nothing, so the stream stays idle and the synchronize
        # returns at once: the same two bindings with almost no runtime work behind them.
        "zero-byte memcpy_async+synchronize_stream python ns": lambda: py_memcpy_sync(
            dev, args.bytes, host, 0, stream, n * 5),
        "zero-byte memcpy_async+synchronize_stream c++ ns": lambda: lib.loop_memcpy_async_sync(
            dev, args.bytes, host, 0, ACL_MEMCPY_HOST_TO_DEVICE, stream, n * 5),
        "get_device python ns": lambda: py_get_device(n * 5),
        "get_device c++ ns": lambda: lib.loop_get_device(n * 5),
        "empty python loop ns": lambda: py_empty_loop(n * 5),
    })
    for key, (b, _) in results.items():
        if b < 0:
            raise SystemExit(f"{key}: the C++ loop reported an error")

    def best(key):
        return results[key][0]

    summary = {
        "binding overhead per call, memcpy_async+synchronize_stream (ns)":
            (best("memcpy_async+synchronize_stream python ns") - best("memcpy_async+synchronize_stream c++ ns")) / 2,
        "binding overhead per call, zero-byte memcpy_async+synchronize_stream (ns)":
            (best("zero-byte memcpy_async+synchronize_stream python ns")
             - best("zero-byte memcpy_async+synchronize_stream c++ ns")) / 2,
        "binding overhead per call, get_device (ns)": best("get_device python ns") - best("get_device c++ ns"),
    }

    print(f"python {platform.python_version()} ({platform.python_implementation()}), "
          f"{n} iterations x {args.rounds} rounds, copy of {args.bytes} bytes (pinned host -> device)")
    print(f"{'measurement (per iteration)':58s} {'best':>10s} {'median':>10s}")
    for key, (b, median) in results.items():
        print(f"{key:58s} {b:10.1f} {median:10.1f}")
    for key, value in summary.items():
        print(f"{key:78s} {value:8.1f}")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "summary": summary, "iterations": n, "rounds": args.rounds,
                       "bytes": args.bytes}, f, indent=2)

    check(acl.rt.free(dev), "acl.rt.free")
    check(acl.rt.free_host(host), "acl.rt.free_host")
    check(acl.rt.destroy_stream(stream), "acl.rt.destroy_stream")
    check(acl.rt.reset_device(0), "acl.rt.reset_device")
    check(acl.finalize(), "acl.finalize")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Instruction counts per API call on the core's hot paths, with valgrind --tool=callgrind
(deterministic, unlike timings on a busy machine). For each case: Ir per call of the API
function (inclusive) and the functions under it that cost the most per call.

Usage: bench/core/profile.py [--build build] [--top 12] [case ...]
Cases: memset_async, launch_kernel, memcpy_4k, streams, worker.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# case: (program, benchmark filter, functions whose calls are counted, extra program args)
CASES = {
    "memset_async": ("bench_core_launch", "BM_Enqueue/memset", ["aclrtMemsetAsync"], ["--benchmark_min_time=0.05"]),
    "launch_kernel": ("bench_core_launch", "BM_Enqueue/noop", ["aclrtLaunchKernel"], ["--benchmark_min_time=0.05"]),
    "memcpy_4k": ("bench_core_memcpy", "BM_Memcpy/D2D/4096", ["aclrtMemcpy"], []),
    "streams": ("bench_core_scale", "BM_Streams10k", ["aclrtCreateStream", "aclrtDestroyStream"], []),
    # The worker side of a task: everything a device worker runs for one 4-byte memset.
    "worker": ("bench_core_launch", "BM_Enqueue/memset", ["openacl::Stream::run_slice()"], ["--benchmark_min_time=0.05"]),
}
# Cases whose figures are per call of another function (a worker runs many tasks per slice).
PER = {
    "worker": "openacl::MemsetTask::run(openacl::ExecContext&)",
}


def parse(path):
    """Inclusive Ir and call counts per function from a callgrind output file."""
    names, incl, calls = {}, {}, {}
    fn = cfn = None
    pending_calls = None
    for line in open(path):
        m = re.match(r"(c?fn)=(?:\((\d+)\))?\s*(.*)", line)
        if m:
            kind, ident, name = m.groups()
            name = name.strip()
            if ident is not None:
                if name:
                    names[ident] = name
                name = names[ident]
            if kind == "fn":
                fn = name
            else:
                cfn = name
            continue
        m = re.match(r"calls=(\d+)", line)
        if m:
            pending_calls = int(m.group(1))
            continue
        m = re.match(r"[+-]?\d+ (\d+)", line) or re.match(r"\* (\d+)", line)
        if m and pending_calls is not None:
            # The cost line after calls= is the inclusive cost of that call site.
            calls[cfn] = calls.get(cfn, 0) + pending_calls
            incl[cfn] = incl.get(cfn, 0) + int(m.group(1))
            pending_calls = None
    return incl, calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("cases", nargs="*", default=list(CASES))
    args = ap.parse_args()
    for case in args.cases:
        program, filt, roots, extra = CASES[case]
        exe = os.path.join(args.build, "bench", "core", program)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "cg.out")
            toggles = [f"--toggle-collect={r.split('(')[0]}*" for r in roots]
            cmd = ["valgrind", "--tool=callgrind", "--compress-strings=no", "--compress-pos=no",
                   f"--callgrind-out-file={out}", *toggles, exe, f"--benchmark_filter={filt}", *extra]
            subprocess.run(cmd, capture_output=True, check=True)
            incl, calls = parse(out)
        print(f"== {case}")
        for root in roots:
            n = calls.get(root, 0) or next((v for k, v in calls.items() if k.startswith(root)), 0)
            key = root if root in calls else next((k for k in calls if k.startswith(root)), root)
            if not n:
                print(f"  {root}: not called")
                continue
            print(f"  {root}: {n} calls, {incl.get(key, 0) / n:.0f} Ir per call (inclusive)")
        keys = [k for k in calls if any(k == r or k.startswith(r) for r in roots)]
        base = max((calls[k] for k in keys), default=0) or 1
        if case in PER:
            base = calls.get(PER[case], 0) or 1
            print(f"  per call of {PER[case]}: {base} calls, "
                  f"{max(incl.get(k, 0) for k in keys) / base:.0f} Ir per call")
        ceiling = max((incl.get(k, 0) for k in keys), default=0)
        ranked = sorted(incl.items(), key=lambda kv: -kv[1])
        shown = 0
        for name, ir in ranked:
            if name in keys or ir >= ceiling:  # the roots and their callers
                continue
            print(f"    {ir / base:8.0f} Ir per call  {name[:120]}")
            shown += 1
            if shown == args.top:
                break


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs every benchmark program of a build and prints one table, each openacl figure next to
the baseline the same program measured in the same run.

Programs: every executable named bench_* under <build>/bench (Google Benchmark programs, run
with --benchmark_format=json and repetitions; the table shows the medians). When the Python
binding benchmark can run (bench/python/bench_binding.py with the built module `acl` and
libacl_bench_loops.so), its results join the table too.

Reporting convention of the Google Benchmark programs (see bench/core/common.h):
  label     "goal: <metric><=|>=<number>[unit]; baseline: <what the baseline is>; ..."
            <metric> is `time`, `ratio` or the name of a user counter;
            units: ns, us, ms, s (time) or B (bytes).
  counters  `openacl_ns` (the time figure, a median of samples within the run; when absent:
            the mean real time per iteration), `baseline_ns` (the baseline of the time),
            `baseline_<metric>` (of a counter metric), `ratio` (the comparison to print;
            when absent: figure / baseline).
A benchmark without a goal is shown with its time and, if any, its `baseline_ns`.

--load N runs every program twice, quiet and beside N busy processes at normal priority
(what a CI runner or a laptop with a build going looks like), and prints both tables.
--against DIR runs the same programs of a second build (say, before a change) right after
each program of --build, under the same conditions, and prints its tables too.

Usage:
  bench/compare.py [--build build] [--repetitions 5] [--filter REGEX] [--markdown]
                   [--load N] [--against DIR] [--json-out FILE] [--strict]
"""
import argparse
import contextlib
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

TIME_UNITS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
GOAL_RE = re.compile(r"goal:\s*(\w+)\s*(<=|>=)\s*([0-9.]+)\s*(ns|us|ms|s|B)?")


def fmt_time(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_value(metric, value):
    if value is None:
        return "-"
    if metric == "time" or metric.endswith("_ns"):
        return fmt_time(value)
    if "bytes" in metric:
        return f"{value:.4g} B"
    return f"{value:.4g}"


def find_programs(build):
    root = os.path.join(build, "bench")
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "CMakeFiles"]
        for name in filenames:
            path = os.path.join(dirpath, name)
            if name.startswith("bench_") and "." not in name and os.access(path, os.X_OK):
                found.append(path)
    return sorted(found)


def run_program(path, repetitions, bench_filter, wrap):
    cmd = wrap + [path, "--benchmark_format=json", f"--benchmark_repetitions={repetitions}"]
    if repetitions > 1:
        cmd.append("--benchmark_report_aggregates_only=true")
    if bench_filter:
        cmd.append(f"--benchmark_filter={bench_filter}")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(f"{path} exited with {proc.returncode}:\n{proc.stderr[-2000:]}\n")
        return None
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        sys.stderr.write(f"{path}: output is not JSON ({e})\n")
        return None


@contextlib.contextmanager
def busy_processes(n):
    """n processes spinning on the CPU at normal priority for the length of the block."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


def short_name(name):
    # Google Benchmark appends how it ran: drop it from the table.
    return re.sub(r"/(real_time|manual_time|iterations:\d+|repeats:\d+|min_time:[\d.]+|min_warmup_time:[\d.]+)", "", name)


def to_ns(value, unit):
    return value * TIME_UNITS.get(unit, 1.0)


def rows_of(program, report):
    """One row per benchmark: its median over the repetitions (or its only run)."""
    entries = report.get("benchmarks", [])
    medians = [b for b in entries if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"]
    picked = medians or [b for b in entries if b.get("run_type", "iteration") == "iteration"]
    cvs = {b["run_name"]: b for b in entries if b.get("aggregate_name") == "cv"}
    reps = {}
    for b in entries:
        reps[b.get("run_name", b["name"])] = b.get("repetitions", 1)
    rows = []
    for b in picked:
        name = b.get("run_name", b["name"])
        label = b.get("label", "")
        time_ns = to_ns(b["real_time"], b.get("time_unit", "ns"))
        counters = {k: v for k, v in b.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
        metric, op, goal_value, goal_text = "time", None, None, "-"
        m = GOAL_RE.search(label)
        if m:
            metric, op, number, unit = m.group(1), m.group(2), float(m.group(3)), m.group(4)
            goal_value = number * TIME_UNITS[unit] if unit in TIME_UNITS else number
            goal_text = f"{op} {m.group(3)}{(' ' + unit) if unit else ''}"
        time_ns = counters.get("openacl_ns", time_ns)
        figure = time_ns if metric == "time" else counters.get(metric)
        baseline = counters.get("baseline_ns") if metric == "time" else counters.get("baseline_" + metric)
        if "ratio" in counters:
            ratio = counters["ratio"]
        elif figure is not None and baseline:
            ratio = figure / baseline
        else:
            ratio = None
        judged = ratio if metric == "ratio" else figure
        shown = metric
        if metric == "ratio":
            # Show what the ratio compares: the time, or the counter that has a baseline_ twin.
            figure, baseline, shown = time_ns, counters.get("baseline_ns"), "time"
            if baseline is None:
                for k in counters:
                    if k.startswith("baseline_") and k[len("baseline_"):] in counters:
                        shown = k[len("baseline_"):]
                        figure, baseline = counters[shown], counters[k]
                        break
        if op is None or judged is None:
            result = "-"
        else:
            result = "pass" if (judged <= goal_value if op == "<=" else judged >= goal_value) else "FAIL"
        cv = cvs.get(name)
        rows.append({
            "program": os.path.basename(program),
            "benchmark": short_name(name),
            "metric": metric,
            "shown": shown,
            "openacl": figure,
            "baseline": baseline,
            "ratio": ratio,
            "goal": goal_text,
            "result": result,
            "cv": to_ns(cv["real_time"], "ns") if cv else None,
            "repetitions": reps.get(name, 1),
            "baseline_what": (re.search(r"baseline:\s*([^;]+)", label) or [None, ""])[1].strip(),
            "counters": {k: v for k, v in counters.items()
                         if k not in ("real_time", "cpu_time", "iterations", "repetitions",
                                      "repetition_index", "threads", "family_index",
                                      "per_family_instance_index")},
        })
    return rows


def python_binding_rows(build, source_root):
    """The binding benchmark (bench/python/bench_binding.py), when it can run."""
    script = os.path.join(source_root, "bench", "python", "bench_binding.py")
    loops = os.path.join(build, "bench", "python", "libacl_bench_loops.so")
    module_dir = os.path.join(build, "python", "dist-packages")
    if not (os.path.exists(script) and os.path.exists(loops) and os.path.isdir(module_dir)):
        return []
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = dict(os.environ, PYTHONPATH=module_dir)
        proc = subprocess.run(["/usr/bin/python3", script, "--loops", loops, "--json", out.name],
                              capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            sys.stderr.write(f"{script} exited with {proc.returncode}:\n{proc.stderr[-2000:]}\n")
            return []
        data = json.load(open(out.name))
    results = data.get("results", {})
    rows = []
    for call in ("memcpy_async+synchronize_stream", "get_device"):
        py, cc = results.get(f"{call} python ns"), results.get(f"{call} c++ ns")
        if not py or not cc:
            continue
        # [best, median] pairs; the table shows medians like the other rows.
        rows.append({
            "program": "bench_binding.py", "benchmark": f"python/{call}", "metric": "time",
            "openacl": py[1], "baseline": cc[1], "ratio": py[1] / cc[1] if cc[1] else None,
            "goal": "-", "result": "-", "cv": None, "repetitions": data.get("rounds", 1),
            "baseline_what": "the same C calls from C++ in the same process", "counters": {},
        })
    return rows


ORT_AVX2_NOTE = ("ONNX Runtime on its AVX2 kernels (bench/model/ort_avx2.py: MLAS's AVX-512 branch "
                 "disabled in a copy), as on a machine without AVX-512")


def isa_line(build, ort_avx2=False):
    """The ISA openacl's kernels and oneDNN run with here (`openacl info`), under the same
    environment as the programs (OPENACL_MAX_ISA caps both), and ORT's."""
    ort = ORT_AVX2_NOTE if ort_avx2 else "ONNX Runtime picks its own kernels by the CPU"
    tool = os.path.join(build, "tools", "openacl")
    try:
        out = subprocess.run([tool, "info"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "ISA: unknown (no tools/openacl in the build)"
    for line in out.splitlines():
        if line.startswith("ISA"):
            return "ISA: " + line[3:].strip() + "; " + ort
    return "ISA: unknown"


def machine_summary(build, ort_avx2=False):
    lines = [f"date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}"]
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        keep = ("Architecture", "Model name", "CPU(s)", "Thread(s) per core", "CPU max MHz",
                "L2 cache", "L3 cache", "Hypervisor vendor")
        for line in lscpu.splitlines():
            key = line.split(":", 1)[0].strip()
            if key in keep:
                lines.append(f"{key}: {line.split(':', 1)[1].strip()}")
    except OSError:
        lines.append(f"machine: {platform.machine()} {platform.processor()}")
    try:
        mem = open("/proc/meminfo").readline().split()
        lines.append(f"memory: {int(mem[1]) // 1024} MiB")
    except OSError:
        pass
    lines.append(f"CPU vector extensions: {isa_summary()}")
    lines.append(f"kernel: {platform.release()}")
    lines.append(isa_line(build, ort_avx2))
    return lines


def isa_summary():
    """The vector extensions the kernels may use (AVX-512 or not changes the op figures)."""
    flags = set()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith(("flags", "Features")):
                flags = set(line.split(":", 1)[1].split())
                break
    except OSError:
        pass
    wanted = ("sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
              "avx512_bf16", "amx_tile", "asimd", "sve")
    have = [f for f in wanted if f in flags]
    return f"{platform.machine()} " + (" ".join(have) if have else "(no vector extensions listed)")


def load_average():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def print_table(rows, markdown):
    header = ["benchmark", "metric", "openacl", "baseline", "ratio", "goal", "result", "cv(time)"]
    table = []
    for r in rows:
        table.append([
            r["benchmark"], r["metric"] if r.get("shown", r["metric"]) in (r["metric"], "time") else f"ratio ({r['shown']})",
            fmt_value(r.get("shown", r["metric"]), r["openacl"]),
            fmt_value(r.get("shown", r["metric"]), r["baseline"]),
            "-" if r["ratio"] is None else f"{r['ratio']:.3g}",
            r["goal"], r["result"],
            "-" if r["cv"] is None else f"{100 * r['cv']:.0f}%",
        ])
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for t in table:
            print("| " + " | ".join(t) + " |")
        return
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for t in table:
        print("  ".join(c.ljust(w) for c, w in zip(t, widths)))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    source_root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(source_root, "build"), help="CMake build directory")
    ap.add_argument("--repetitions", type=int, default=5, help="runs per benchmark; the table shows medians")
    ap.add_argument("--filter", help="regex passed to --benchmark_filter")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--json-out", help="also write every row (with all counters) here")
    ap.add_argument("--no-python", action="store_true", help="skip the Python binding benchmark")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    ap.add_argument("--wrap", default="", help="command to run each program under, e.g. 'chrt -f 1' "
                    "(real-time priority on a machine busy with other work)")
    ap.add_argument("--load", type=int, default=0, metavar="N",
                    help="also run every program beside N busy processes at normal priority")
    ap.add_argument("--ort-isa", choices=("native", "avx2"), default="native",
                    help="avx2: the ONNX Runtime baselines (bench_model, BM_Conv2D) run its AVX2 "
                    "kernels (with OPENACL_MAX_ISA=avx2, an AVX-512 machine measures an AVX2 "
                    "machine's ratios)")
    ap.add_argument("--against", metavar="DIR", help="a second build whose programs run right after "
                    "each program of --build (before/after a change, in one run)")
    args = ap.parse_args()

    if args.ort_isa == "avx2":
        modules = subprocess.run(
            [sys.executable, os.path.join(here, "model", "ort_avx2.py"),
             os.path.join(source_root, ".cache", "npm", "node_modules"),
             os.path.join(args.build, "ort-avx2")], capture_output=True, text=True)
        if modules.returncode != 0:
            sys.exit(modules.stderr.strip())
        os.environ["OPENACL_ORT_NODE_MODULES"] = modules.stdout.strip()
    programs = find_programs(args.build)
    if not programs:
        sys.exit(f"no bench_* programs under {os.path.join(args.build, 'bench')}: build them first")
    builds = [args.build] + ([args.against] if args.against else [])
    loads = [0] + ([args.load] if args.load > 0 else [])
    load_before = load_average()
    tables = {(b, n): [] for b in builds for n in loads}
    for program in programs:
        rel = os.path.relpath(program, args.build)
        for n in loads:
            for build in builds:
                path = os.path.join(build, rel)
                if not os.access(path, os.X_OK):
                    continue
                print(f"running {path}" + (f" beside {n} busy processes" if n else "") + " ...",
                      file=sys.stderr, flush=True)
                with busy_processes(n):
                    report = run_program(path, args.repetitions, args.filter, args.wrap.split())
                if report is not None:
                    tables[(build, n)].extend(rows_of(program, report))
    if not args.no_python and not args.filter:
        for (build, n), rows in tables.items():
            with busy_processes(n):
                rows.extend(python_binding_rows(build, source_root))

    for line in machine_summary(args.build, args.ort_isa == "avx2"):
        print(line)
    print(f"load average: {load_before} before, {load_average()} after; "
          f"{args.repetitions} repetitions, medians shown; cv = coefficient of variation of the time")
    if args.wrap:
        print(f"programs run under: {args.wrap}")
    for (build, n), rows in tables.items():
        print()
        title = "quiet" if n == 0 else f"beside {n} busy processes"
        if len(builds) > 1:
            title += f", build {build}"
        print(f"{title}:" if not args.markdown else f"**{title}**")
        print()
        print_table(rows, args.markdown)
    print()
    rows = [r for t in tables.values() for r in t]
    baselines = {}
    for r in rows:
        if r["baseline_what"]:
            baselines.setdefault(r["baseline_what"], []).append(r["benchmark"])
    if baselines:
        print("baselines:")
    for what, names in baselines.items():
        print(f"  {what}: {', '.join(sorted(set(n.split('/')[0] for n in names)))}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"machine": machine_summary(args.build),
                       "tables": [{"build": b, "load": n, "rows": t} for (b, n), t in tables.items()]},
                      f, indent=2)
    if args.strict and any(r["result"] == "FAIL" for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Soak test (issue 10; not part of CI): runs the API-sequence fuzzer (tests/fuzz) as a mixed
# load from 8 threads for 30 minutes and samples the process's resident memory (VmRSS) and
# open file descriptors every minute, next to the live objects the fuzzer counts. Reports
# whether they stay flat: after a warm-up, the last third of the samples may not exceed the
# first third by more than the allowed growth.
#
#   scripts/soak.sh                       # 30 minutes, seed 1, release build in build/soak
#   SOAK_SECONDS=300 SOAK_SEED=7 scripts/soak.sh
#   SOAK_BUILD=build/fuzz-asan scripts/soak.sh   # an existing build (any with tests/fuzz)
#
# Environment: SOAK_SECONDS (1800), SOAK_INTERVAL (60), SOAK_THREADS (8), SOAK_SEED (1),
# SOAK_RSS_GROWTH_MB (32), SOAK_FD_GROWTH (8), SOAK_BUILD (build/soak, built if missing).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${SOAK_SECONDS:-1800}"
interval="${SOAK_INTERVAL:-60}"
threads="${SOAK_THREADS:-8}"
seed="${SOAK_SEED:-1}"
rss_growth_kb=$(( ${SOAK_RSS_GROWTH_MB:-32} * 1024 ))
fd_growth="${SOAK_FD_GROWTH:-8}"
build="${SOAK_BUILD:-build/soak}"

if [[ -z "${SOAK_BUILD:-}" ]]; then
  # A release build of the runtime core and the fuzzer only: the RSS of a sanitizer build
  # grows with its quarantine, not with the runtime.
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENACL_CORE_ONLY=ON \
    -DOPENACL_TEST_DIRS=fuzz -DOPENACL_BUILD_PYTHON=OFF -DOPENACL_BUILD_BENCH=OFF \
    -DOPENACL_BUILD_TOOLS=OFF -DOPENACL_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build "$build" --target openacl_fuzz openacl_fuzz_kernels
fi
fuzz="$build/tests/fuzz/openacl_fuzz"
[[ -x "$fuzz" ]] || { echo "soak: $fuzz not found" >&2; exit 2; }

log="$(mktemp -t openacl-soak.XXXXXX.log)"
echo "soak: $fuzz --seed $seed --threads $threads for ${seconds}s, sampling every ${interval}s (log: $log)"
"$fuzz" --seed "$seed" --threads "$threads" --seconds "$seconds" --stats "$interval" --stall 60 \
  >"$log" 2>&1 &
pid=$!

rss=() fds=()
sample() {
  local r f
  r=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || return 1
  f=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l) || return 1
  [[ -n "$r" ]] || return 1
  rss+=("$r")
  fds+=("$f")
  local live
  live=$(grep '\[fuzz\] stats' "$log" | tail -1 | sed 's/.*live: //') || true
  printf 'soak: t=%5ds rss=%7d kB fds=%4d  %s\n' $(( ${#rss[@]} * interval )) "$r" "$f" "$live"
}
while kill -0 "$pid" 2>/dev/null; do
  for ((i = 0; i < interval; ++i)); do
    kill -0 "$pid" 2>/dev/null || break 2
    sleep 1
  done
  sample || break
done
set +e
wait "$pid"
status=$?
set -e
grep -E '^\[fuzz\] (seed=.*done|VIOLATION|HANG|note)' "$log" || true

n=${#rss[@]}
if (( n < 4 )); then
  echo "soak: only $n samples; run longer (SOAK_SECONDS) to judge flatness"
  exit $(( status != 0 ))
fi
# The first sample is warm-up; compare the mean of the next third with the mean of the last.
third=$(( (n - 1) / 3 ))
(( third >= 1 )) || third=1
mean() { local s=0 c=0 v; for v in "$@"; do s=$((s + v)); c=$((c + 1)); done; echo $((s / c)); }
rss_early=$(mean "${rss[@]:1:third}")
rss_late=$(mean "${rss[@]: -third}")
fd_early=$(mean "${fds[@]:1:third}")
fd_late=$(mean "${fds[@]: -third}")
echo "soak: rss early ${rss_early} kB, late ${rss_late} kB (allowed growth ${rss_growth_kb} kB)"
echo "soak: fds early ${fd_early}, late ${fd_late} (allowed growth ${fd_growth})"
flat=1
(( rss_late - rss_early <= rss_growth_kb )) || { echo "soak: RSS grows"; flat=0; }
(( fd_late - fd_early <= fd_growth )) || { echo "soak: open file descriptors grow"; flat=0; }
if (( status != 0 )); then echo "soak: the fuzzer exited with status $status (see $log)"; fi
if (( flat && status == 0 )); then
  echo "soak: flat"
  exit 0
fi
exit 1

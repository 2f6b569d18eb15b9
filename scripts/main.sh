#!/usr/bin/env bash
# The main job: installs what is missing, builds openacl, fetches the PP-OCR models, and runs
# the text-detection model on the simulated NPU with a readable report; then runs the runtime
# examples (each checks its own results).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="${OPENACL_JOBS:-$(nproc)}"

scripts/setup.sh
eval "$(scripts/fetch_models.sh)"   # sets cls, det, rec, ort

cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DOPENACL_BUILD_TESTS=OFF -DOPENACL_BUILD_BENCH=OFF >/dev/null
cmake --build build/release -j "$jobs"

openacl=build/release/tools/openacl
echo
echo "== openacl info =="
"$openacl" info
echo
echo "== PP-OCRv4 text detection on the simulated NPU =="
"$openacl" run "$det" --shape x=1x3x640x640 --iterations 8 --streams 2
echo
echo "== runtime examples =="
failed=0
for ex in build/release/examples/example_*; do
  [[ -x "$ex" && ! -d "$ex" ]] || continue
  if "$ex"; then :; else echo "FAILED: $ex"; failed=1; fi
done
exit $failed

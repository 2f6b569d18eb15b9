#!/usr/bin/env bash
# The installed toolkit as a CANN user meets it (issue 14). One phase per ctest test:
#   toolkit_test.sh install  <work> <cmake> <build dir>  install, then move the tree: it must be relocatable
#   toolkit_test.sh sample   <work> <cmake> <project>    source set_env.sh, build and run a project
#                                                        written the way the official samples are
#   toolkit_test.sh commands <work> <readelf>            bin/ runs without LD_LIBRARY_PATH; every
#                                                        installed program and library has an $ORIGIN RUNPATH
#   toolkit_test.sh npu-smi  <work>                      `npu-smi info` prints CANN's table
set -euo pipefail

phase=$1 work=$2
toolkit="$work/toolkit"
fail() { echo "FAIL: $*" >&2; exit 1; }

case "$phase" in
install)
  cmake=$3 build=$4
  rm -rf "$work"
  mkdir -p "$work"
  "$cmake" --install "$build" --prefix "$work/installed" >/dev/null
  mv "$work/installed" "$toolkit"
  for p in set_env.sh bin/openacl bin/npu-smi bin/atc include/acl/acl.h lib64/libascendcl.so \
           lib64/libacl_op_compiler.so runtime/include/acl/acl.h runtime/lib64/libascendcl.so \
           runtime/lib64/stub/libascendcl.so runtime/lib64/stub/libacl_op_compiler.so \
           compiler/include/acl/acl_op_compiler.h compiler/lib64/stub/libascendcl.so \
           compiler/lib64/stub/libacl_op_compiler.so include/acl/ops/acl_cblas.h \
           lib64/libacl_cblas.so runtime/lib64/stub/libacl_cblas.so include/aclnn/aclnn_base.h \
           include/aclnnop/aclnn_add.h runtime/include/aclnnop/aclnn_matmul.h lib64/libnnopbase.so \
           lib64/libopapi.so runtime/lib64/stub/libnnopbase.so runtime/lib64/stub/libopapi.so; do
    [[ -e "$toolkit/$p" ]] || fail "the install has no $p"
  done
  ;;

sample)
  cmake=$3 project=$4
  unset LD_LIBRARY_PATH PYTHONPATH DDK_PATH NPU_HOST_LIB ASCEND_TOOLKIT_HOME OPENACL_SOC_NAME
  # Sourced by a relative path from elsewhere, as READMEs do (. ./set_env.sh, source ~/...).
  cd "$work"
  # shellcheck disable=SC1091
  source toolkit/set_env.sh
  cd /
  [[ "$ASCEND_TOOLKIT_HOME" == "$toolkit" && "$ASCEND_HOME_PATH" == "$toolkit" && "$DDK_PATH" == "$toolkit" ]] ||
    fail "set_env.sh points at '$ASCEND_TOOLKIT_HOME', not at $toolkit"
  [[ "$NPU_HOST_LIB" == "$toolkit/runtime/lib64/stub" ]] || fail "NPU_HOST_LIB is '$NPU_HOST_LIB'"
  [[ "$LD_LIBRARY_PATH" == "$toolkit/lib64" ]] || fail "LD_LIBRARY_PATH is '$LD_LIBRARY_PATH'"
  [[ "$(command -v npu-smi)" == "$toolkit/bin/npu-smi" ]] || fail "npu-smi is not on PATH"
  [[ "$(command -v atc)" == "$toolkit/bin/atc" ]] || fail "atc is not on PATH"
  # With the Python module installed, PYTHONPATH finds it (built for Debian's /usr/bin/python3).
  if [[ -n "${PYTHONPATH:-}" ]]; then
    /usr/bin/python3 -c 'import acl, sys; sys.exit(acl.get_soc_name() != "Ascend910B3")' ||
      fail "import acl through PYTHONPATH '$PYTHONPATH'"
  fi
  rm -rf "$work/sample"
  "$cmake" -S "$project" -B "$work/sample" >/dev/null || fail "the sample project does not configure"
  "$cmake" --build "$work/sample" >/dev/null || fail "the sample project does not build"
  out=$("$work/sample/src/main") || fail "the sample program failed: $out"
  grep -q "run success" <<<"$out" || fail "the sample program says: $out"
  ;;

commands)
  readelf=$3
  env -u LD_LIBRARY_PATH "$toolkit/bin/openacl" info | grep -q "devices: 2" || fail "bin/openacl info"
  env -u LD_LIBRARY_PATH "$toolkit/bin/npu-smi" info >/dev/null || fail "bin/npu-smi info"
  env -u LD_LIBRARY_PATH "$toolkit/bin/atc" --help | grep -q -- "--framework" || fail "bin/atc --help"
  while IFS= read -r f; do
    "$readelf" -d "$f" | grep -q 'R\(UN\)\?PATH.*\[\$ORIGIN' || fail "$f has no \$ORIGIN RUNPATH"
  done < <(find "$toolkit/bin" "$toolkit/lib" -type f \( -path '*/bin/*' -o -name '*.so*' \))
  ;;

npu-smi)
  smi="$toolkit/bin/npu-smi"
  out=$(OPENACL_DEVICE_COUNT=3 OPENACL_DEVICE_MEMORY_MB=4096 OPENACL_SOC_NAME=Ascend910B4 "$smi" info)
  expected_head='+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+'
  [[ "$(sed -n 3,6p <<<"$out")" == "$expected_head" ]] || fail "the table head is not CANN's: $out"
  # Build scripts (ggml's CMake among them) read the chip as the third field of line 7.
  [[ "$(awk 'NR == 7 {print $3}' <<<"$out")" == 910B4 ]] || fail "line 7 does not name 910B4: $out"
  [[ "$(grep -c '^| [0-9] .*| OK ' <<<"$out")" == 3 ]] || fail "not one row per device: $out"
  [[ "$(grep -c '/ 4096 ' <<<"$out")" == 3 ]] || fail "HBM totals are not 4096 MB: $out"
  [[ "$(grep -c 'No running processes found in NPU' <<<"$out")" == 3 ]] || fail "process table: $out"
  awk 'length($0) != 98 { exit 1 }' <<<"$out" || fail "a line is not 98 characters wide: $out"
  [[ "$(env -u OPENACL_SOC_NAME "$smi" info | awk 'NR == 7 {print $3}')" == 910B3 ]] ||
    fail "the default chip is not 910B3"
  if "$smi" board 2>/dev/null; then fail "npu-smi board succeeded"; fi
  ;;

*)
  fail "unknown phase $phase"
  ;;
esac

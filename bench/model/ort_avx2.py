#!/usr/bin/env python3
"""Makes a copy of the npm onnxruntime-node package whose ONNX Runtime runs the kernels it runs
on a CPU without AVX-512, so that an AVX-512 machine can measure the AVX2 machine's comparison
(openacl under OPENACL_MAX_ISA=avx2 against ORT on its AVX2 kernels).

ORT chooses its CPU kernels once, in MLAS's platform set-up (onnxruntime/core/mlas/lib/
platform.cpp): AVX2/FMA3 kernels first, then, when CPUID reports AVX512F and XCR0 enables its
state, the AVX-512 ones. Nothing in ORT's options or environment lowers that choice, and this
machine cannot hide AVX-512 from CPUID (no CPUID faulting in the VM). So the copy's
libonnxruntime.so has that one branch changed from "skip the AVX-512 kernels when CPUID lacks
AVX512F" to "skip them always"; everything else, AVX-VNNI included, stays as ORT chooses it on
an AVX2 machine. The byte pattern is that of the pinned onnxruntime-node (scripts/
fetch_models.sh); another build fails here instead of being measured wrongly.

Usage: ort_avx2.py SOURCE_NODE_MODULES DEST_DIR  -> prints DEST_DIR/node_modules
"""
import os
import re
import shutil
import sys

# test $0x10000,%r10d (CPUID.7:EBX.AVX512F); je <skip the AVX-512 kernels>; mov %r8,%rax;
# not %rax; test $0xe0,%al (XCR0's AVX-512 state bits). The je becomes jmp (0x74 -> 0xeb; a copy
# made before already has the jmp).
PATTERN = re.compile(rb"\x41\xf7\xc2\x00\x00\x01\x00([\x74\xeb]).\x4c\x89\xc0\x48\xf7\xd0\xa8\xe0", re.S)


def patch(lib):
    data = bytearray(open(lib, "rb").read())
    found = list(PATTERN.finditer(data))
    if len(found) != 1:
        sys.exit(f"{lib}: MLAS's AVX-512 check found {len(found)} times, expected once: not the "
                 "onnxruntime-node that scripts/fetch_models.sh pins")
    data[found[0].start(1)] = 0xEB
    with open(lib, "wb") as f:
        f.write(data)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    source, dest = (os.path.abspath(a) for a in sys.argv[1:])
    modules = os.path.join(dest, "node_modules")
    os.makedirs(modules, exist_ok=True)
    for name in os.listdir(source):
        target = os.path.join(modules, name)
        if name == "onnxruntime-node" or os.path.lexists(target):
            continue
        os.symlink(os.path.join(source, name), target)
    ort = os.path.join(modules, "onnxruntime-node")
    if not os.path.isdir(ort):
        shutil.copytree(os.path.join(source, "onnxruntime-node"), ort, symlinks=True)
    libs = [os.path.join(d, f) for d, _, files in os.walk(ort) for f in files
            if os.path.basename(d) == "x64" and f.startswith("libonnxruntime.so")
            and not os.path.islink(os.path.join(d, f))]
    if not libs:
        sys.exit(f"no x64 libonnxruntime.so under {ort}")
    for lib in libs:
        patch(lib)
    print(modules)


if __name__ == "__main__":
    main()

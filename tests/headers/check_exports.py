#!/usr/bin/python3
"""Check that openacl's libraries export every AscendCL function of the reference (appendix G5),
each from the library CANN ships it in: the functions of acl_op_compiler.h from
libacl_op_compiler and not from libascendcl (a program linking -lascendcl -lacl_op_compiler
would otherwise bind to whichever comes first), every other one from libascendcl.

Functions openacl implements are strong symbols (nm type T); the rest come from the weak
definitions of src/api/unsupported*.cpp (type W) and fail with ACL_ERROR_API_NOT_SUPPORT.
usage: check_exports.py <repo root> <nm> <libascendcl.so> <libacl_op_compiler.so> [--list]
"""
import json
import os
import subprocess
import sys

LIBRARY_OF_HEADER = {"acl_op_compiler.h": 1}  # index into the library arguments; default 0


def exports(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True, check=True)
    kinds = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            kinds[parts[2]] = parts[1]
    return kinds


def main():
    root, nm = sys.argv[1:3]
    libs = [a for a in sys.argv[3:] if not a.startswith("--")]
    api = json.load(open(os.path.join(root, "scripts/gen_api/api.json"), encoding="utf-8"))
    kinds = [exports(nm, lib) for lib in libs]
    strong, weak, missing, misplaced = [], [], [], []
    for f in api["functions"]:
        name, home = f["name"], LIBRARY_OF_HEADER.get(f["header"], 0)
        kind = kinds[home].get(name)
        if kind == "T":
            strong.append(name)
        elif kind in ("W", "V"):
            weak.append(name)
        else:
            missing.append(f"{name} ({os.path.basename(libs[home])})")
        misplaced += [f"{name} ({os.path.basename(libs[i])})" for i in range(len(libs))
                      if i != home and name in kinds[i]]
    if "--list" in sys.argv:
        for n in strong:
            print("implemented", n)
    print(f"{len(api['functions'])} reference functions: {len(strong)} implemented, {len(weak)} report "
          f"ACL_ERROR_API_NOT_SUPPORT, {len(missing)} not exported, {len(misplaced)} exported twice")
    if missing:
        print("not exported:", " ".join(missing))
    if misplaced:
        print("also exported by another library:", " ".join(misplaced))
    return 1 if missing or misplaced else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Check that libascendcl exports every AscendCL function of the reference (appendix G5).

Functions openacl implements are strong symbols (nm type T); the rest come from the weak
definitions of src/api/unsupported.cpp (type W) and fail with ACL_ERROR_API_NOT_SUPPORT.
usage: check_exports.py <repo root> <nm> <libascendcl.so> [--list]
"""
import json
import os
import subprocess
import sys


def main():
    root, nm, lib = sys.argv[1:4]
    api = json.load(open(os.path.join(root, "scripts/gen_api/api.json"), encoding="utf-8"))
    out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True, check=True)
    kinds = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            kinds[parts[2]] = parts[1]
    names = [f["name"] for f in api["functions"]]
    missing = [n for n in names if n not in kinds]
    strong = [n for n in names if kinds.get(n) == "T"]
    weak = [n for n in names if kinds.get(n) in ("W", "V")]
    if "--list" in sys.argv:
        for n in strong:
            print("implemented", n)
    print(f"{len(names)} reference functions: {len(strong)} implemented, {len(weak)} report "
          f"ACL_ERROR_API_NOT_SUPPORT, {len(missing)} not exported")
    if missing:
        print("not exported:", " ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

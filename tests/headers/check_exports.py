#!/usr/bin/python3
"""Check that openacl's libraries export every AscendCL function of the reference (api.json),
each from the library CANN ships it in: the functions of acl_op_compiler.h from
libacl_op_compiler and not from libascendcl (a program linking -lascendcl -lacl_op_compiler
would otherwise bind to whichever comes first), every other one from libascendcl. Whether a
function is implemented or a stub is the API table's (scripts/gen_api/coverage.json), which the
build checks at link time.
usage: check_exports.py <repo root> <nm> <libascendcl.so> <libacl_op_compiler.so>
"""
import os
import subprocess
import sys

LIBRARIES = ["libascendcl", "libacl_op_compiler"]  # the order of the library arguments


def exports(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True, check=True)
    return {parts[2] for parts in (line.split() for line in out.stdout.splitlines()) if len(parts) == 3}


def main():
    root, nm, *libs = sys.argv[1:]
    sys.path.insert(0, os.path.join(root, "scripts/gen_api"))
    import api_table
    functions, _ = api_table.load()
    names = [exports(nm, lib) for lib in libs]
    missing, misplaced = [], []
    for f in functions:
        home = LIBRARIES.index(f["library"])
        if f["name"] not in names[home]:
            missing.append(f"{f['name']} ({os.path.basename(libs[home])})")
        misplaced += [f"{f['name']} ({os.path.basename(libs[i])})" for i in range(len(libs))
                      if i != home and f["name"] in names[i]]
    implemented = sum(f["implemented"] != "no" for f in functions)
    print(f"{len(functions)} reference functions ({implemented} implemented by a full build), "
          f"{len(missing)} not exported, {len(misplaced)} exported twice")
    if missing:
        print("not exported:", " ".join(missing))
    if misplaced:
        print("also exported by another library:", " ".join(misplaced))
    return 1 if missing or misplaced else 0


if __name__ == "__main__":
    sys.exit(main())

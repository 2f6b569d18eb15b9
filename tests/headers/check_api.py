#!/usr/bin/python3
"""Check include/acl against the complete reference facts in scripts/gen_api/api.json.

- every exported function of the reference ("functions") is declared, and redeclaring it with the
  reference signature in strict C11 compiles (C rejects a conflicting redeclaration);
- no header declares an exported function the reference lacks (but the headers that the
  reference extraction leaves out: NOT_IN_REFERENCE);
- every enumerator ("enums"), integer macro ("macros"), callback typedef ("callbacks") and
  struct field ("structs") exists with the reference value / type;
- every error code ("acl_errors", "rt_errors", "ge_errors") has the reference value and the
  declared type upstream uses.

usage: check_api.py <repo root> <C compiler> <C++ compiler>
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HEADERS = ["acl/acl.h", "acl/acl_op_compiler.h", "acl/acl_dump.h", "acl/acl_rt_api.h",
           "acl/error_codes/rt_error_codes.h", "acl/error_codes/ge_error_codes.h"]


def field_name(decl):
    m = re.search(r"(\w+)\s*(\[[^\]]*\])*$", decl)
    return m.group(1) if m else None


def c_source(api):
    out = [f'#include "{h}"' for h in HEADERS]
    out.append("void openacl_check_presence(void)\n{")
    out += [f"    (void)&{f['name']};" for f in api["functions"]]
    out.append("}")
    out += [f"{f['ret']} {f['name']}({f['params']});" for f in api["functions"]]
    for e in api["enums"]:
        for m in e["members"]:
            out.append(f'_Static_assert({m["name"]} == ({m["value"]}), "{e["name"]}::{m["name"]}");')
    for m in api["macros"]:
        if m["value"].startswith('"') or m["static_int"]:
            continue
        out.append(f'_Static_assert(({m["name"]}) == ({m["value"]}), "{m["name"]}");')
    out += [c["decl"] for c in api["callbacks"]]
    out.append("void openacl_check_fields(void)\n{")
    for i, s in enumerate(api["structs"]):
        t = s["name"] if s["typedef"] else f"struct {s['name']}"
        depth = 0
        for f in s["fields"]:
            if "{" in f:
                depth += 1
                continue
            if f.startswith("}"):
                depth -= 1
                continue
            if depth == 0:
                out.append(f"    {{ {t} *p{i} = 0; (void)sizeof(p{i}->{field_name(f)}); }}")
    out.append("}")
    for c in api["rt_errors"]:
        out.append(f'_Static_assert({c["name"]} == {c["value"]}, "{c["name"]}");')
    return "\n".join(out) + "\n"


def cxx_source(api):
    out = [f'#include "{h}"' for h in HEADERS] + ["#include <string_view>", "#include <type_traits>"]
    for c in api["acl_errors"]:
        out.append(f'static_assert({c["name"]} == {c["value"]} && '
                   f'std::is_same_v<decltype({c["name"]}), const int>, "{c["name"]}");')
    for c in api["ge_errors"]:
        out.append(f'static_assert({c["name"]} == {c["value"]}U && '
                   f'std::is_same_v<decltype({c["name"]}), const uint32_t>, "{c["name"]}");')
    for m in api["macros"]:
        if m["value"].startswith('"'):
            out.append(f'static_assert(std::string_view({m["name"]}) == {m["value"]}, "{m["name"]}");')
        elif m["static_int"]:
            out.append(f'static_assert({m["name"]} == {m["value"]} && '
                       f'std::is_same_v<decltype({m["name"]}), const int>, "{m["name"]}");')
    return "\n".join(out) + "\n"


# The headers under acl/ops (acl_cblas.h, acl_dvpp.h) are outside the reference facts
# (reference: "Not extracted"); tests/headers/*_layout.*, tests/ops/cblas_test.cpp and
# tests/dvpp check them.
NOT_IN_REFERENCE = ("ops",)


def declared_functions(include_dir):
    names = []
    for root, dirs, files in os.walk(include_dir):
        dirs[:] = [d for d in dirs if d not in NOT_IN_REFERENCE]
        for fn in files:
            text = open(os.path.join(root, fn), encoding="utf-8").read()
            names += re.findall(r"^(?!#)[^\n]*?ACL_FUNC_VISIBILITY\s[^;(]*?\b(\w+)\s*\(", text, re.M)
    return names


def compile_check(cmd, src, suffix):
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
        f.write(src)
        path = f.name
    try:
        r = subprocess.run(cmd + [path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode != 0:
        print(r.stderr[:20000])
        return False
    return True


def main():
    root, cc, cxx = sys.argv[1:4]
    api = json.load(open(os.path.join(root, "scripts/gen_api/api.json"), encoding="utf-8"))
    inc = os.path.join(root, "include")
    ok = True

    names = [f["name"] for f in api["functions"]]
    if len(names) != 571 or len(set(names)) != 571:
        print(f"reference list has {len(names)} functions ({len(set(names))} unique), expected 571")
        ok = False
    declared = declared_functions(os.path.join(inc, "acl"))
    dup = sorted({n for n in declared if declared.count(n) > 1})
    extra = sorted(set(declared) - set(names))
    missing = sorted(set(names) - set(declared))
    for label, items in (("declared twice", dup), ("not in the reference", extra),
                         ("not declared", missing)):
        if items:
            print(f"functions {label}: {items}")
            ok = False

    flags = ["-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-Wno-deprecated-declarations",
             "-pedantic-errors", "-I", inc]
    ok &= compile_check([cc, "-std=c11", "-x", "c"] + flags, c_source(api), ".c")
    for std in ("c++17", "c++20"):
        ok &= compile_check([cxx, f"-std={std}", "-x", "c++"] + flags, cxx_source(api), ".cpp")

    print(f"{len(names)} functions, {sum(len(e['members']) for e in api['enums'])} enumerators, "
          f"{len(api['macros'])} macros, {len(api['structs'])} structs, "
          f"{len(api['acl_errors']) + len(api['rt_errors']) + len(api['ge_errors'])} error codes: "
          + ("OK" if ok else "MISMATCH"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Extract the AscendCL API facts from the reference markdown into api.json.

The reference (acl-api.md) tabulates every enum (G1), integer macro (G2), public struct (G3),
callback typedef (G4), exported function (G5) and error code (section 3) of the real headers.
api.json is the input of gen_headers.py (and, with coverage.json, of the stubs and the API docs),
so the headers can be regenerated without the reference at hand.
"""
import json
import re
import sys


def section(text, start, end):
    i = text.index(start)
    j = text.index(end, i + len(start))
    return text[i:j]


def parse_enums(text):
    enums = []
    for line in section(text, "## G1.", "## G2.").splitlines():
        m = re.match(r"- \*\*(.+?)\*\* — `([a-z_]+\.h)`: (.*)$", line)
        if not m:
            continue
        title, header, body = m.groups()
        tag = name = title
        typedef = True
        t = re.match(r"enum (\w+) \(no typedef\)", title)
        if t:
            tag = name = t.group(1)
            typedef = False
        t = re.match(r"(\w+) \(tag `enum (\w+)`\)", title)
        if t:
            name, tag = t.group(1), t.group(2)
        members = []
        for item in body.split(", "):
            mm = re.match(r"(\w+)=(-?\w+)( \(dep\))?$", item.strip())
            if not mm:
                raise SystemExit(f"cannot parse enumerator {item!r} in {title}")
            members.append({"name": mm.group(1), "value": mm.group(2),
                            "deprecated": bool(mm.group(3))})
        enums.append({"name": name, "tag": tag, "typedef": typedef, "header": header,
                      "members": members})
    return enums


def table_rows(block):
    for line in block.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            yield [c.strip() for c in line.strip().strip("|").split("|")]


def parse_macros(text):
    macros = []
    for cells in table_rows(section(text, "## G2.", "## G3.")):
        header, name, value = cells[0], cells[1], cells[2]
        if header == "Header":
            continue
        static_int = "(static const int)" in name
        name = re.search(r"`(\w+)`", name).group(1)
        macros.append({"header": header, "name": name, "value": value.strip("`"),
                       "static_int": static_int})
    return macros


def parse_structs(text):
    structs = []
    for line in section(text, "## G3.", "## G4.").splitlines():
        m = re.match(r"- \*\*(.+?)\*\* (?:\((struct|union)(?: (\w+))?\) |\(no typedef\) )?— `([a-z_]+\.h)`: (.*)$", line)
        if not m:
            continue
        title, kind, tag, header, body = m.groups()
        typedef = True
        t = re.match(r"struct (\w+)$", title)
        if t:
            title, kind, tag, typedef = t.group(1), "struct", None, False
        fields = [f.strip().strip("`").strip() for f in body.split("`; `")]
        structs.append({"name": title, "kind": kind, "tag": tag or title, "typedef": typedef,
                        "header": header, "fields": fields})
    return structs


def parse_callbacks(text):
    cbs = []
    for line in section(text, "## G4.", "## G5.").splitlines():
        m = re.match(r"- `(typedef .*;)` — `([a-z_]+\.h)`", line)
        if m:
            decl = re.sub(r"\(\s+", "(", m.group(1))
            cbs.append({"decl": decl, "header": m.group(2)})
    return cbs


def parse_functions(text):
    funcs = []
    block = text[text.index("## G5."):]
    group = None
    for line in block.splitlines():
        g = re.match(r"### ([A-Z])\. (.*?) — \d+ functions", line)
        if g:
            group = g.group(1) + ". " + g.group(2)
            continue
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = cells[0].strip("`")
        sig = cells[1].strip("`").strip()
        m = re.match(r"^(.*?)\b" + re.escape(name) + r"\((.*)\);$", sig)
        if not m:
            raise SystemExit(f"cannot parse signature {sig!r}")
        funcs.append({"name": name, "ret": m.group(1).strip(), "params": m.group(2).strip(),
                      "header": cells[2], "deprecated": cells[3] == "D", "group": group})
    return funcs


def parse_errors(text, start, end):
    codes = []
    for cells in table_rows(section(text, start, end)):
        m = re.match(r"`(\w+)`$", cells[0])
        if m and re.match(r"\d+$", cells[1]):
            codes.append({"name": m.group(1), "value": int(cells[1]),
                          "meaning": cells[2] if len(cells) > 2 else ""})
    return codes


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/reference/acl-api.md"
    out = sys.argv[2] if len(sys.argv) > 2 else "scripts/gen_api/api.json"
    text = open(src, encoding="utf-8").read()
    api = {
        "enums": parse_enums(text),
        "macros": parse_macros(text),
        "structs": parse_structs(text),
        "callbacks": parse_callbacks(text),
        "functions": parse_functions(text),
        "acl_errors": parse_errors(text, "### 3.1", "### 3.2"),
        "rt_errors": parse_errors(text, "### 3.2", "### 3.3"),
        "ge_errors": parse_errors(text, "### 3.3", "Notes on the error headers"),
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(api, f, indent=1)
        f.write("\n")
    for k, v in api.items():
        print(f"{k}: {len(v)}")


if __name__ == "__main__":
    main()

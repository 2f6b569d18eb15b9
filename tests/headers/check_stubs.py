#!/usr/bin/python3
"""Fails when the checked-in stubs (src/api/unsupported*.cpp) differ from what
scripts/gen_api/gen_unsupported.py makes of scripts/gen_api/api.json: regenerate them with
`python3 scripts/gen_api/gen_unsupported.py` after changing the API table or the generator."""
import difflib
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
with tempfile.TemporaryDirectory() as out:
    generator = os.path.join(root, "scripts/gen_api/gen_unsupported.py")
    subprocess.run([sys.executable, generator, out], check=True, stdout=subprocess.DEVNULL)
    drift = False
    for name in sorted(os.listdir(out)):
        with open(os.path.join(out, name), encoding="utf-8") as f:
            generated = f.readlines()
        with open(os.path.join(root, "src/api", name), encoding="utf-8") as f:
            checked_in = f.readlines()
        if generated != checked_in:
            drift = True
            diff = difflib.unified_diff(checked_in, generated, "src/api/" + name, "generated", n=1)
            sys.stdout.writelines(diff)
    if drift:
        print("src/api stubs differ from the generator's output: "
              "run scripts/gen_api/gen_unsupported.py")
        sys.exit(1)
    print("src/api stubs match scripts/gen_api/api.json")

#!/usr/bin/env python3
"""CI check without a GPU: every PTX module of the suite (gpu_suite_manifest.json) is instrumented by
`barracuda instrument --with-runtime` and the result is accepted by ptxas for the module's own target.

  instrument_suite.py BARRACUDA PTXAS MANIFEST [INSTRUMENT_OPTION...]

Options after the manifest go to `barracuda instrument` (e.g. --filter-repeated-reads --no-branches)."""
import json
import os
import re
import subprocess
import sys
import tempfile


def target_of(ptx_text):
    match = re.search(r"^\s*\.target\s+(sm_\w+)", ptx_text, re.M)
    return match.group(1) if match else "sm_90"


def main():
    barracuda, ptxas, manifest = sys.argv[1:4]
    instrument_options = sys.argv[4:]
    with open(manifest) as f:
        programs = json.load(f)["programs"]
    failures = []
    modules = 0
    with tempfile.TemporaryDirectory() as tmp:
        for program in programs:
            for ptx in program["ptx"]:
                modules += 1
                out = os.path.join(tmp, "instrumented.ptx")
                name = f"{program['group']}/{program['name']}: {os.path.basename(ptx)}"
                step = subprocess.run([barracuda, "instrument", "--with-runtime", *instrument_options, ptx, "-o", out],
                                      capture_output=True, text=True)
                if step.returncode != 0:
                    failures.append(f"{name}: instrument failed: {step.stderr.strip()}")
                    continue
                with open(ptx) as f:
                    arch = target_of(f.read())
                step = subprocess.run([ptxas, f"-arch={arch}", "-c", out, "-o", os.path.join(tmp, "out.o")],
                                      capture_output=True, text=True)
                if step.returncode != 0:
                    failures.append(f"{name}: ptxas rejected the instrumented module: {step.stderr.strip()[:400]}")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{modules - len(failures)} of {modules} suite modules instrumented and accepted by ptxas")
    return 1 if failures or modules == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

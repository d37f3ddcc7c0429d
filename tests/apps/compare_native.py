#!/usr/bin/env python3
"""Runs programs natively and under `barracuda run`, and checks that the tool leaves them alone: the
same stdout, the same exit code (or 66/67 when barracuda found races or could not check everything,
which the table says), and no crash. Prints one markdown table row per program, and the tool's stderr
for programs that failed.

  compare_native.py BARRACUDA PROGRAM [PROGRAM ...] [--timeout S] [--markdown OUT.md]

Exit status 0 when every program's behaviour was unchanged, 1 otherwise, 77 without a GPU."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def run(command, timeout, env=None):
    start = time.perf_counter()
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, errors="replace")
        return p.returncode, p.stdout, p.stderr, time.perf_counter() - start
    except subprocess.TimeoutExpired:
        return None, "", "timed out", time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("barracuda")
    parser.add_argument("programs", nargs="+")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--markdown")
    args = parser.parse_args()
    smi = shutil.which("nvidia-smi")
    if smi is None or subprocess.run([smi, "-L"], capture_output=True).returncode != 0:
        print("skipped: no GPU")
        return 77
    rows = ["| program | native exit | tool exit | stdout | races | not checked | native s | tool s |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        for program in args.programs:
            name = os.path.basename(program)
            native_code, native_out, native_err, native_s = run([program], args.timeout)
            report_path = os.path.join(tmp, name + ".json")
            code, out, err, tool_s = run([args.barracuda, "run", "--report", report_path, "--", program],
                                         args.timeout, env)
            races, skipped = "-", "-"
            try:
                with open(report_path) as f:
                    summary = json.load(f)["summary"]
                races = str(summary["unique_races"])
                skipped = "; ".join(f"{s['kernel']}: {s['reason']}" for s in summary["kernels_skipped"]) or "none"
            except (OSError, ValueError, KeyError):
                pass
            same_out = out == native_out
            code_ok = code == native_code or (code in (66, 67) and native_code == 0)
            ok = same_out and code_ok
            failed |= not ok
            rows.append(f"| {name} | {native_code} | {code} | {'same' if same_out else 'DIFFERS'} | {races} | "
                        f"{skipped} | {native_s:.2f} | {tool_s:.2f} |")
            if not ok:
                print(f"=== {name}: native stdout\n{native_out}=== native stderr\n{native_err}"
                      f"=== barracuda stdout\n{out}=== barracuda stderr\n{err}")
    print("\n".join(rows))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(rows) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

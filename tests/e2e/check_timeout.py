#!/usr/bin/env python3
"""`barracuda run --timeout` stops an app that outlives it, and the report keeps what was checked:
runs APP (which races, then waits for minutes) with --timeout 5 and checks the exit status of a
SIGTERM-ed app (143), the race in the report, the note that the run was stopped, and that it all took
well under the app's own wait.

  check_timeout.py BARRACUDA APP [--spin | --flood] --line FILE:LINE

--spin: the app's wait is a kernel that never ends (APP spin): the report must also say that a launch
was still running when it was written.
--flood: the app's wait is an endless stream of launches (APP flood), so the signal finds the app's
thread inside the tool's launch hook.

Exits 77 (skipped) where no GPU is usable."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("barracuda")
    parser.add_argument("app")
    parser.add_argument("--line", required=True)
    parser.add_argument("--spin", action="store_true")
    parser.add_argument("--flood", action="store_true")
    args = parser.parse_args()
    smi = shutil.which("nvidia-smi")
    if smi is None or subprocess.run([smi], capture_output=True).returncode != 0:
        print("skipped: no GPU")
        return 77
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        report_path = os.path.join(tmp, "r.json")
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        start = time.monotonic()
        app = [args.app, "spin"] if args.spin else [args.app, "flood"] if args.flood else [args.app]
        run = subprocess.run([args.barracuda, "run", "--timeout", "5", "--report", report_path, "--", *app],
                             capture_output=True, text=True, env=env, timeout=120)
        elapsed = time.monotonic() - start
        sys.stderr.write(run.stderr)
        if run.returncode != 66:
            failures.append(f"exit code {run.returncode}, expected 66 (races found outrank the app's 143)")
        if elapsed > 60:
            failures.append(f"took {elapsed:.0f} s")
        with open(report_path) as f:
            report = json.load(f)
    lines = {f"{os.path.basename(a['site']['file'])}:{a['site']['line']}"
             for r in report["races"] for a in (r["current"], r["previous"])}
    if args.line not in lines:
        failures.append(f"no race names {args.line}: {sorted(lines)}")
    if not any("stopped by signal" in s["reason"] for s in report["summary"]["kernels_skipped"]):
        failures.append(f"the report does not say the run was stopped: {report['summary']['kernels_skipped']}")
    if args.spin and not any("still running" in s["reason"] for s in report["summary"]["kernels_skipped"]):
        failures.append(f"the report does not name the launch still running: {report['summary']['kernels_skipped']}")
    if "ran past --timeout 5 s" not in run.stderr:
        failures.append("no message about the timeout")
    for failure in failures:
        print("FAIL:", failure)
    print(f"exit {run.returncode} after {elapsed:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs a racy app that leaves the tool N MiB of GPU memory, for each N given, natively and under
`barracuda run`. Whichever of the tool's allocations fails at a level (event queues, the shadow pool
of shared-memory checking, the global shadow, sync tickets), the run must either report the app's
race at LINE or say in the report that the launch was not checked (exit 67): a launch counted as
checked that lost its race fails the test, as do a changed output or exit status.

  check_memory_sweep.py BARRACUDA --line FILE:LINE --levels N,N,... -- APP

APP is run as `APP N`. Exits 77 (skipped) where no GPU is usable."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_run import gpu_available, parse_options_and_app  # noqa: E402

ATTEMPTS = 3
LOST_RACE = "counted as checked"


def named_lines(report):
    return {f"{os.path.basename(access['site']['file'])}:{access['site']['line']}"
            for race in report["races"] for access in (race["current"], race["previous"])}


def check_level(barracuda, app, level, line, tmp):
    """What is wrong with the run that leaves `level` MiB, and how it ended ("checked", "not checked")."""
    native = subprocess.run(app + [str(level)], capture_output=True, text=True)
    report_path = os.path.join(tmp, f"report-{level}.json")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    checked = subprocess.run([barracuda, "run", "--report", report_path, "--"] + app + [str(level)],
                             capture_output=True, text=True, env=env)
    failures = []
    if checked.stdout != native.stdout:
        failures.append(f"stdout differs: native {native.stdout!r}, barracuda {checked.stdout!r}")
    try:
        with open(report_path) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        return failures + [f"no report ({error}); exit {checked.returncode}:\n{checked.stderr[-2000:]}"], "no report"
    summary = report["summary"]
    if summary["analysis_incomplete"] and summary["unique_races"] == 0:
        if checked.returncode != 67:
            failures.append(f"not checked, exit {checked.returncode}, expected 67")
        return failures, "not checked: " + "; ".join(str(s.get("reason")) for s in summary["kernels_skipped"])
    if line not in named_lines(report):
        failures.append(f"{LOST_RACE} ({summary['launches']} launches, {summary['events']} events) "
                        f"without the race at {line}: {checked.stderr[-2000:]}")
    if checked.returncode != 66:
        failures.append(f"exit {checked.returncode}, expected 66")
    return failures, f"race found, {summary['events']} events"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("barracuda")
    parser.add_argument("--line", required=True, help="FILE:LINE the race must name")
    parser.add_argument("--levels", required=True, help="MiB left to the tool, comma-separated")
    args, app = parse_options_and_app(parser)
    if not gpu_available():
        print("skipped: no GPU")
        return 77
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for level in (int(n) for n in args.levels.split(",")):
            # What the app finds free also depends on other processes on the GPU (a test run beside
            # this one, memory an exited process has not given back yet): a level fails only when
            # every attempt does.
            for attempt in range(1, ATTEMPTS + 1):
                failures, outcome = check_level(args.barracuda, app, level, args.line, tmp)
                print(f"{level} MiB left: {outcome}" + (f" (attempt {attempt})" if attempt > 1 else ""))
                if not failures:
                    break
                # A lost race is never put down to the GPU's neighbours.
                final = attempt == ATTEMPTS or any(failure.startswith(LOST_RACE) for failure in failures)
                for failure in failures:
                    print(f"{'FAIL' if final else 'again'} ({level} MiB):", failure)
                if final:
                    break
                time.sleep(2)
            failed |= bool(failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

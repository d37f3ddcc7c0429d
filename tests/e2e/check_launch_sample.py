#!/usr/bin/env python3
"""--launch-sample K checks the first K launches of each kernel and runs the others with logging off:
runs APP (two kernels, 300 launches each) natively, under `barracuda run --launch-sample 3` and under
`barracuda run --launch-count 1 --launch-skip 599`, and checks the output is the native one, the
report counts the launches checked and left out, and prints the wall times (sampled vs native).

  check_launch_sample.py BARRACUDA APP

Exits 77 (skipped) where no GPU is usable."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def timed(command, env=None):
    start = time.monotonic()
    run = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    return run, time.monotonic() - start


def main():
    barracuda, app = sys.argv[1], sys.argv[2]
    smi = shutil.which("nvidia-smi")
    if smi is None or subprocess.run([smi], capture_output=True).returncode != 0:
        print("skipped: no GPU")
        return 77
    failures = []
    native, native_s = timed([app])
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        for flags, checked in ((["--launch-sample", "3"], 6), (["--launch-skip", "599", "--launch-count", "1"], 1)):
            report_path = os.path.join(tmp, "r.json")
            run, seconds = timed([barracuda, "run", "--report", report_path, *flags, "--", app], env)
            with open(report_path) as f:
                summary = json.load(f)["summary"]
            name = " ".join(flags)
            print(f"{name}: exit {run.returncode}, {seconds:.2f} s (native {native_s:.2f} s), "
                  f"{summary['launches']} launches, {summary.get('launches_filtered')} left out, {summary['events']} events")
            if run.stdout != native.stdout:
                failures.append(f"{name}: stdout differs: {run.stdout!r} vs {native.stdout!r}")
            if run.returncode != 0:
                failures.append(f"{name}: exit {run.returncode}\n{run.stderr}")
            if summary["launches"] != 600 or summary.get("launches_filtered") != 600 - checked:
                failures.append(f"{name}: {summary['launches']} launches, {summary.get('launches_filtered')} left out")
            if f"({600 - checked} left out by the launch filters)" not in run.stderr:
                failures.append(f"{name}: the summary line does not say how many launches were left out")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

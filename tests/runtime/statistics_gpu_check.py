#!/usr/bin/env python3
"""Runs an app twice under `barracuda run -v` with one fresh cubin cache, and checks the reports'
statistics: the first run compiles its modules, the second finds them in the cache; both count the
events, the queues' memory, the drain and the engine; `-v` prints the statistics line.

  statistics_gpu_check.py BARRACUDA APP [ARGS...]

Exits 77 (skipped) where no GPU is usable."""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def gpu_available():
    smi = shutil.which("nvidia-smi")
    return smi is not None and subprocess.run([smi], capture_output=True).returncode == 0


def checked_run(barracuda, app, tmp, name):
    report_path = os.path.join(tmp, f"{name}.json")
    # Global memory checked on the host: the engine's figures must come from real work.
    run = subprocess.run([barracuda, "run", "-v", "--no-device-global-check", "--report", report_path,
                          "--cache-dir", os.path.join(tmp, "cache"), "--", *app], capture_output=True, text=True)
    sys.stderr.write(run.stderr)
    with open(report_path) as f:
        return json.load(f), run.stderr


def expect(failures, condition, what):
    if not condition:
        failures.append(what)


def check_common(failures, name, report, log):
    statistics, events = report["statistics"], report["summary"]["events"]
    expect(failures, events > 0 and statistics["events"] == events, f"{name}: events {statistics['events']}")
    expect(failures, statistics["slots"] >= events, f"{name}: {statistics['slots']} slots for {events} events")
    for field in ("queue_host_bytes", "queue_device_bytes", "drain_threads", "drain_wait_seconds", "engine_seconds",
                  "engine_thread_accesses", "engine_peak_resident_blocks", "modules_instrumented"):
        expect(failures, statistics[field] > 0, f"{name}: {field} is {statistics[field]}")
    expect(failures, statistics["modules_instrumented"] == statistics["cache_hits"] + statistics["cache_misses"],
           f"{name}: modules instrumented are not the cache's hits and misses")
    expect(failures, f"barracuda: statistics: {events} events," in log, f"{name}: no -v statistics line")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    if not gpu_available():
        print("skipped: no GPU")
        return 77
    barracuda, app = sys.argv[1], sys.argv[2:]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        first, first_log = checked_run(barracuda, app, tmp, "first")
        second, second_log = checked_run(barracuda, app, tmp, "second")
    check_common(failures, "first run", first, first_log)
    check_common(failures, "second run", second, second_log)
    compiled, cached = first["statistics"], second["statistics"]
    expect(failures, compiled["cache_misses"] > 0 and compiled["cache_hits"] == 0 and compiled["jit_seconds"] > 0,
           f"first run: {compiled['cache_misses']} compiled in {compiled['jit_seconds']} s, "
           f"{compiled['cache_hits']} cached")
    expect(failures, cached["cache_misses"] == 0 and cached["cache_hits"] == compiled["cache_misses"]
           and cached["jit_seconds"] == 0 and cached["cache_load_seconds"] > 0,
           f"second run: {cached['cache_misses']} compiled, {cached['cache_hits']} cached in "
           f"{cached['cache_load_seconds']} s")
    for failure in failures:
        print("FAIL:", failure)
    print(json.dumps(second["statistics"], indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

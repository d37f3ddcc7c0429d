#!/usr/bin/env python3
"""`barracuda run` merges what every process of the app's tree wrote (CPU only: the "app" here is this
script, which writes per-process reports where the preloaded library would).

  check_run_merges_processes.py BARRACUDA SAMPLE_REPORT.json

As the app (`--app SAMPLE`), it writes the sample report as two processes' reports (the same races in
both) and leaves a third process's pending marker without a report, as a crashed child would. The
run must then exit 66, and its JSON report hold each race once with twice its dynamic count, name both
processes, list the crashed one as not checked, and its SARIF report must exist."""
import json
import os
import re
import subprocess
import sys
import tempfile


def act_as_app(sample_path):
    options = os.environ["BARRACUDA_OPTIONS"]
    pattern = re.search(r"(?:^|:)report=([^:]*)", options).group(1)
    with open(sample_path) as f:
        sample = json.load(f)
    for pid, command in ((1001, ["./first"]), (1002, ["./second", "--flag"])):
        sample["run"]["pid"] = pid
        sample["run"]["command_line"] = command
        with open(pattern.replace("%p", str(pid)), "w") as f:
            json.dump(sample, f)
    with open(pattern.replace("%p", "1003") + ".pending", "w") as f:
        f.write("./crashed")
    return 0


def main():
    if sys.argv[1] == "--app":
        return act_as_app(sys.argv[2])
    barracuda, sample_path = sys.argv[1], sys.argv[2]
    with open(sample_path) as f:
        sample = json.load(f)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        report_path, sarif_path = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.sarif")
        run = subprocess.run([barracuda, "run", "--report", report_path, "--sarif", sarif_path, "--",
                              sys.executable, os.path.abspath(__file__), "--app", sample_path],
                             capture_output=True, text=True)
        sys.stderr.write(run.stderr)
        if run.returncode != 66:
            failures.append(f"exit code {run.returncode}, expected 66")
        with open(report_path) as f:
            merged = json.load(f)
        if not os.path.getsize(sarif_path):
            failures.append("empty SARIF report")
    if [p["pid"] for p in merged.get("processes", [])] != [1001, 1002]:
        failures.append(f"processes {merged.get('processes')}, expected pids 1001 and 1002")
    if len(merged["races"]) != len(sample["races"]):
        failures.append(f"{len(merged['races'])} races, expected {len(sample['races'])} (each once)")
    for race, original in zip(merged["races"], sample["races"]):
        if race["dynamic_count"] != 2 * original["dynamic_count"] or race.get("pid") != 1001:
            failures.append(f"race {race['fingerprint']}: count {race['dynamic_count']}, pid {race.get('pid')}")
    crashed = [s for s in merged["summary"]["kernels_skipped"] if s["kernel"].startswith("process 1003")]
    if not crashed or not merged["summary"]["analysis_incomplete"]:
        failures.append(f"the crashed process is not named: {merged['summary']['kernels_skipped']}")
    if "In process" in run.stderr or "3 processes" in run.stderr:
        failures.append("the run's summary must count the 2 processes that wrote reports")
    if "2 processes" not in run.stderr or "NOT checked: process 1003 (./crashed): ended before" not in run.stderr:
        failures.append("the run's summary does not name the processes")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

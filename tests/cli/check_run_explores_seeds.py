#!/usr/bin/env python3
"""`barracuda run --explore 3` runs the app three times with perturb=1, 2, 3 and merges what the runs
found, each finding naming the first seed that showed it (CPU only: the "app" here is this script,
which writes the report the preloaded library would, its findings depending on the seed and each
naming it, as the library's do).

  check_run_explores_seeds.py BARRACUDA SAMPLE_REPORT.json

As the app (`--app SAMPLE`): seed 1 finds nothing, seed 2 the sample's first race, seed 3 every race
and the sample's diagnostics. The run must exit 66; its report must hold each race once, the first
race found first with seed 2 and the others with seed 3; and it must have started the app once per
seed, in order."""
import json
import os
import re
import subprocess
import sys
import tempfile


def act_as_app(sample_path, log_path):
    options = os.environ["BARRACUDA_OPTIONS"]
    pattern = re.search(r"(?:^|:)report=([^:]*)", options).group(1)
    seed = int(re.search(r"(?:^|:)perturb=(\d+)", options).group(1))
    with open(log_path, "a") as log:
        log.write(f"{seed}\n")
    with open(sample_path) as f:
        sample = json.load(f)
    if seed == 1:
        sample["races"], sample["diagnostics"] = [], []
    elif seed == 2:
        sample["races"], sample["diagnostics"] = sample["races"][:1], []
    for finding in sample["races"] + sample["diagnostics"]:
        finding["perturb_seed"] = seed
    sample["run"]["pid"] = 2000 + seed
    with open(pattern.replace("%p", str(2000 + seed)), "w") as f:
        json.dump(sample, f)
    return 0


def main():
    if sys.argv[1] == "--app":
        return act_as_app(sys.argv[2], sys.argv[3])
    barracuda, sample_path = sys.argv[1], sys.argv[2]
    with open(sample_path) as f:
        sample = json.load(f)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        report_path, log_path = os.path.join(tmp, "r.json"), os.path.join(tmp, "seeds.log")
        run = subprocess.run([barracuda, "run", "--explore", "3", "--report", report_path, "--",
                              sys.executable, os.path.abspath(__file__), "--app", sample_path, log_path],
                             capture_output=True, text=True)
        sys.stderr.write(run.stderr)
        if run.returncode != 66:
            failures.append(f"exit code {run.returncode}, expected 66")
        with open(report_path) as f:
            merged = json.load(f)
        with open(log_path) as f:
            seeds = [int(line) for line in f]
    if seeds != [1, 2, 3]:
        failures.append(f"the app ran with seeds {seeds}, expected [1, 2, 3]")
    fingerprints = [r["fingerprint"] for r in merged["races"]]
    if sorted(fingerprints) != sorted(r["fingerprint"] for r in sample["races"]):
        failures.append(f"races {fingerprints}, expected each of the sample's once")
    for race in merged["races"]:
        expected = 2 if race["fingerprint"] == sample["races"][0]["fingerprint"] else 3
        if race.get("perturb_seed") != expected:
            failures.append(f"race {race['fingerprint']}: perturb_seed {race.get('perturb_seed')}, expected {expected}")
    for diagnostic in merged["diagnostics"]:
        if diagnostic.get("perturb_seed") != 3:
            failures.append(f"diagnostic {diagnostic['kind']}: perturb_seed {diagnostic.get('perturb_seed')}, expected 3")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

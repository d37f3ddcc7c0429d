#!/usr/bin/env python3
"""Races found in child processes reach the run's report: a parent that exits after its children (a
shell, ctest, python's subprocess) must not hide them. Runs, under `barracuda run`, each of

  bash -c "RACY; CLEAN; echo done"            a shell around a racy and a clean program
  python3 -c "subprocess.run(RACY); ..."      python's subprocess, then a process without CUDA
  ctest --test-dir CTEST_DIR                  a CTest project of CUDA test executables, one racy

and checks: exit code 66, the merged JSON report holds the racy program's race (naming LINE) with
the racy process's pid and command line, every process that loaded GPU code is listed, and the
SARIF report exists.

  check_process_tree.py BARRACUDA --racy APP --clean APP --ctest-dir DIR --line FILE:LINE

Exits 77 (skipped) where no GPU is usable."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def gpu_available():
    smi = shutil.which("nvidia-smi")
    return smi is not None and subprocess.run([smi], capture_output=True).returncode == 0


def check(name, barracuda, command, racy, line, expected_processes, tmp):
    report_path = os.path.join(tmp, name + ".json")
    sarif_path = os.path.join(tmp, name + ".sarif")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    run = subprocess.run([barracuda, "run", "--report", report_path, "--sarif", sarif_path, "--"] + command,
                         capture_output=True, text=True, env=env)
    failures = []
    if run.returncode != 66:
        failures.append(f"exit code {run.returncode}, expected 66")
    try:
        with open(report_path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        return [f"no readable report: {e}"], run
    if not os.path.getsize(sarif_path):
        failures.append("empty SARIF report")
    # One process that loaded GPU code: the report is its own, named by its run section.
    processes = report.get("processes") or [report["run"]]
    if len(processes) != expected_processes:
        failures.append(f"{len(processes)} processes in the report, expected {expected_processes}: {processes}")
    racy_pids = {p["pid"] for p in processes if p["command_line"] and p["command_line"][0].endswith(os.path.basename(racy))}
    named = [r for r in report["races"]
             if any(f"{os.path.basename(a['site']['file'])}:{a['site']['line']}" == line
                    for a in (r["current"], r["previous"]))]
    if not named:
        failures.append(f"no race names {line}")
    elif named[0].get("pid", report["run"]["pid"]) not in racy_pids:
        failures.append(f"race charged to pid {named[0].get('pid')}, the racy program ran as {racy_pids}")
    if report["summary"]["analysis_incomplete"]:
        failures.append(f"analysis incomplete: {report['summary']['kernels_skipped']}")
    return failures, run


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("barracuda")
    parser.add_argument("--racy", required=True)
    parser.add_argument("--clean", required=True)
    parser.add_argument("--ctest-dir", required=True)
    parser.add_argument("--line", required=True)
    args = parser.parse_args()
    if not gpu_available():
        print("skipped: no GPU")
        return 77
    shapes = {
        "shell": (["bash", "-c", f"'{args.racy}'; '{args.clean}'; echo done"], 2),
        "python": ([sys.executable, "-c",
                    f"import subprocess; subprocess.run([{args.racy!r}]); subprocess.run(['/bin/true'])"], 1),
        "ctest": (["ctest", "--test-dir", args.ctest_dir], 2),
    }
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name, (command, processes) in shapes.items():
            failures, run = check(name, args.barracuda, command, args.racy, args.line, processes, tmp)
            print(f"--- {name}: exit {run.returncode}")
            if failures:
                failed = True
                sys.stdout.write(run.stdout)
                sys.stderr.write(run.stderr)
                for failure in failures:
                    print(f"FAIL ({name}):", failure)
            else:
                print(run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The hardened columns of the litmus table (issue 16 part 1): the races the detector column found are
handed to `barracuda run --harden` (the fences and scopes `barracuda harden` proposes, applied to the
PTX at load time), then the hardware table is measured again with the hardened module run without logging (`--harden-only`:
the runtime's calls alone would change the timing), and every cell is checked again under it.

    harden.py --litmus BIN --barracuda BIN --table DETECTED.md --reports DIR --out OUT.md [--jobs N]
              [--work DIR] [-- barracuda-litmus args]

DETECTED.md is detector.py's table, DIR its --work directory (one report per cell run). Exit status: 1 when
a hardened MP or CoRR cell found race-free still showed its weak outcome, or a hardened run failed;
0 otherwise.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from detector import read_table, run_cell, verdict_of  # noqa: E402


def merged_report(reports_dir, path):
    """Writes one report holding the races of every report in `reports_dir`; returns how many."""
    merged, races = None, []
    for name in sorted(glob.glob(os.path.join(reports_dir, "*.json"))):
        with open(name) as f:
            report = json.load(f)
        merged = merged or report
        races += report.get("races", [])
    if merged is None:
        sys.exit(f"harden.py: no reports in {reports_dir}")
    merged["races"] = races
    with open(path, "w") as f:
        json.dump(merged, f)
    return len(races)


def weak_counts(args, name, tool_args, cache_dir):
    """{cell: [weak without stress, weak with stress]} of the hardware table run under `barracuda run
    TOOL_ARGS`."""
    table = os.path.join(args.work, f"{name}-hardware.md")
    command = [args.barracuda, "run", "-q", *tool_args, "--cache-dir", cache_dir, "--", args.litmus, "--markdown",
               table, *args.litmus_args]
    done = subprocess.run(command, capture_output=True, text=True)
    with open(os.path.join(args.work, f"{name}-hardware.log"), "w") as f:
        f.write(done.stdout + done.stderr)
    if not os.path.exists(table):
        sys.exit(f"harden.py: the {name} hardware run wrote no table (exit {done.returncode}):\n"
                 f"{(done.stdout + done.stderr)[-2000:]}")
    header, rows = read_table(table)
    weak_columns = [i for i, column in enumerate(header[0]) if column.startswith("weak")]
    return {":".join(row[:3]): [row[i] for i in weak_columns] for row in rows}


def hardened_cell(args, cell, hardening, cache_dir):
    return verdict_of(*run_cell(args, cell, 0, cache_dir, ["--harden", hardening]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--litmus", required=True)
    parser.add_argument("--barracuda", required=True)
    parser.add_argument("--table", required=True, help="detector.py's table")
    parser.add_argument("--reports", required=True, help="detector.py's --work directory")
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--work", help="directory for the hardened runs' files (default: a temporary one)")
    parser.add_argument("litmus_args", nargs="*", help="barracuda-litmus arguments (iterations, stress)")
    args = parser.parse_args()
    args.work = args.work or tempfile.mkdtemp(prefix="litmus-hardened-")
    args.deadline = time.monotonic() + 24 * 3600  # run_cell's budget: none here (each run has --timeout)
    os.makedirs(args.work, exist_ok=True)

    hardening = os.path.join(args.work, "all-races.json")
    race_count = merged_report(args.reports, hardening)
    proposals = subprocess.run([args.barracuda, "harden", hardening], capture_output=True, text=True)
    with open(os.path.join(args.work, "harden.txt"), "w") as f:
        f.write(proposals.stdout + proposals.stderr)
    print(proposals.stdout.strip().splitlines()[-1] if proposals.stdout.strip() else "harden: no output")

    # The hardware table again with the hardened module, run without logging (harden_only): its weak
    # outcomes beside the native ones of the same table.
    cache_dir = tempfile.mkdtemp(prefix="litmus-hardened-cache-")
    hardened_weak = weak_counts(args, "hardened", ["--harden", hardening, "--harden-only"], cache_dir)

    header, rows = read_table(args.table)
    cells = [":".join(row[:3]) for row in rows]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        verdicts = dict(zip(cells, pool.map(lambda c: hardened_cell(args, c, hardening, cache_dir), cells)))

    header[0] += ["hardened: weak (no stress)", "hardened: weak (stress)", "hardened: barracuda"]
    header[1] += ["---:", "---:", "---"]
    failures = []
    out_rows = []
    for cell, row in zip(cells, rows):
        weak = hardened_weak.get(cell, ["-", "-"])
        verdict, detail = verdicts[cell]
        shown = f"{verdict} ({detail})" if detail else verdict
        out_rows.append(row + weak + [shown])
        # Where MP or CoRR is race-free its weak outcome cannot happen (the read is ordered after the
        # write it must see); SB, LB and IRIW show theirs with strong accesses too.
        implies_strong = cell.split(":")[0] in ("MP", "CoRR")
        if verdict == "error" or (verdict == "no race" and implies_strong and any(w not in ("0", "-") for w in weak)):
            failures.append(cell)
        print(f"{cell:42} hardened weak {'/'.join(weak):>9}  barracuda {shown}")
    fixed = sum(1 for cell in cells if verdicts[cell][0] == "no race")
    with open(args.table) as f:  # the detector's summary lines under its table stay
        notes = [line for line in f if line.strip() and not line.startswith("|")]
    with open(args.out, "w") as f:
        for line in header + out_rows:
            f.write("| " + " | ".join(line) + " |\n")
        f.write("\n" + "".join(notes))
        f.write(f"hardened: {race_count} races of the detector runs handed to `barracuda run --harden`; "
                f"{fixed} of {len(cells)} cells race-free once hardened")
        f.write(f"; weak outcomes or errors after hardening in: {', '.join(failures)}\n" if failures else "\n")
    print(f"hardened: {fixed} of {len(cells)} cells race-free once hardened; files in {args.work}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The detector column of the litmus table: runs every cell once under `barracuda run` and compares its
verdict with the one the PTX model predicts (model.h, expected_detector_verdict).

    detector.py --litmus BIN --barracuda BIN [--table HW.md] --out OUT.md [--jobs N] [--repeat N]
                [--budget SECONDS] [--work DIR]

Each cell is one process (`barracuda-litmus --detector-cell TEST:VARIANT:PLACEMENT`: one instance on fixed
threads), so every race in its report belongs to that cell. A race counts for the cell when it is on one
of the cell's two locations, whose addresses the cell prints (`locations: x=0x... y=0x...`); a race
anywhere else is a harness bug and is shown as such (source lines cannot tell them apart: the report
names the kernel's line that calls the inlined litmus code). With --table (the markdown table barracuda-litmus writes) the columns are added to its
rows and only those cells run; without it every cell runs. Exit status: 0 when every cell agrees with
the model, 1 otherwise, 2 on usage errors.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

LOCATIONS = re.compile(r"^locations: x=(0x[0-9a-f]+) y=(0x[0-9a-f]+)$", re.MULTILINE)
WORD = 4  # every litmus access is a 32-bit word
# MP's bounded wait for the flag ran out: the run is not the synchronised execution the model's verdict
# assumes (shown beside the verdict).
FLAG_NOT_SEEN = "note: the reader never saw the flag"


def list_cells(litmus):
    """[(cell name, expected verdict)] in table order, from barracuda-litmus --list-cells."""
    out = subprocess.run([litmus, "--list-cells"], check=True, capture_output=True, text=True).stdout
    return [tuple(line.split("\t")) for line in out.splitlines() if line]


def run_cell(args, cell, run, cache_dir, tool_args=()):
    """Runs one cell under `barracuda run TOOL_ARGS` (its `run`th time); returns (exit code, report path,
    output)."""
    report = os.path.join(args.work, f"{cell.replace(':', '_')}.{run}.json")
    left = args.deadline - time.monotonic()
    if left <= 0:
        return None, report, "not run: --budget spent"
    timeout = min(args.timeout, left)
    command = [args.barracuda, "run", *tool_args, "--report", report, "--cache-dir", cache_dir, "--queue-bytes",
               "4M", "--", args.litmus, "--detector-cell", cell]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        return done.returncode, report, done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        return None, report, f"timed out after {timeout:.0f} s"


def location_of(race, locations):
    """'x' or 'y' when the race is on that litmus location, else None."""
    address = int(race["address"], 16)
    for name, start in locations.items():
        if start <= address < start + WORD:
            return name
    return None


def verdict_of(code, report_path, output):
    """(verdict, detail): verdict is "race", "no race" or "error"; detail names the races or the problem."""
    if code is None:
        return "error", output
    if code not in (0, 66) or not os.path.exists(report_path):
        last = output.strip().splitlines()[-1] if output.strip() else ""
        return "error", f"exit {code}: {last}" if last else f"exit {code}"
    with open(report_path) as f:
        report = json.load(f)
    summary = report["summary"]
    problems = []
    if summary.get("analysis_incomplete") or summary.get("dropped_events"):
        problems.append("analysis incomplete")
    if summary.get("kernels_skipped"):
        problems.append("kernel not instrumented")
    if report.get("diagnostics") and any(d["kind"] == "barrier-divergence" for d in report["diagnostics"]):
        problems.append("barrier divergence")
    found = LOCATIONS.search(output)
    if not found:
        return "error", "the cell did not print its locations"
    locations = {"x": int(found.group(1), 16), "y": int(found.group(2), 16)}
    races = report["races"]
    cell_races = [(r["class"], location_of(r, locations)) for r in races if location_of(r, locations)]
    harness = len(races) - len(cell_races)
    if harness:
        problems.append(f"{harness} race(s) off the cell's locations")
    if problems:
        return "error", "; ".join(problems)
    notes = [f"{c} on {name}" for c, name in sorted(set(cell_races))]
    if FLAG_NOT_SEEN in output:
        notes.append("the reader never saw the flag")
    return "race" if cell_races else "no race", ", ".join(notes)


def combine(runs):
    """One (verdict, detail) for the runs of a cell: any error wins; runs that differ are a race seen in
    some runs only (the engine's view of one run depends on the order it drains the queues)."""
    errors = [detail for verdict, detail in runs if verdict == "error"]
    if errors:
        return "error", "; ".join(sorted(set(errors)))
    details = ", ".join(sorted({d for _, d in runs if d}))
    racy = sum(verdict == "race" for verdict, _ in runs)
    if racy not in (0, len(runs)):
        return "race", f"{details}; in {racy} of {len(runs)} runs"
    return runs[0][0], details


def read_table(path):
    """(header lines, rows as cell lists) of a markdown table."""
    with open(path) as f:
        lines = [line.rstrip("\n") for line in f if line.startswith("|")]
    split = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    return split[:2], split[2:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--litmus", required=True, help="barracuda-litmus")
    parser.add_argument("--barracuda", required=True, help="the barracuda command")
    parser.add_argument("--table", help="hardware table written by barracuda-litmus --markdown")
    parser.add_argument("--out", required=True, help="markdown table with the detector columns")
    parser.add_argument("--jobs", type=int, default=8, help="cells checked at once (one GPU context each)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per cell (the verdict must hold in each)")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per run")
    parser.add_argument("--budget", type=int, default=3600, help="seconds for all runs; later ones are not run")
    parser.add_argument("--work", help="directory for the reports (default: a temporary one)")
    args = parser.parse_args()
    args.deadline = time.monotonic() + args.budget
    args.work = args.work or tempfile.mkdtemp(prefix="litmus-detector-")
    os.makedirs(args.work, exist_ok=True)
    # The instrumented module is the same in every run: cached once, dropped at the end.
    cache_dir = tempfile.mkdtemp(prefix="litmus-cache-")

    expected = dict(list_cells(args.litmus))
    if args.table:
        header, rows = read_table(args.table)
        cells = [":".join(row[:3]) for row in rows]
    else:
        header = [["test", "variant", "placement"], ["---", "---", "---"]]
        cells = list(expected)
        rows = [cell.split(":") for cell in cells]
    unknown = [c for c in cells if c not in expected]
    if unknown:
        sys.exit(f"detector.py: cells not in barracuda-litmus --list-cells: {', '.join(unknown)}")

    # The first run instruments the module and fills the cache; the others then only load it.
    runs = {cell: [] for cell in cells}
    runs[cells[0]].append(verdict_of(*run_cell(args, cells[0], 0, cache_dir)))
    pending = [(cell, run) for run in range(max(1, args.repeat)) for cell in cells if (cell, run) != (cells[0], 0)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_cell, args, cell, run, cache_dir): cell for cell, run in pending}
        for future in concurrent.futures.as_completed(futures):
            runs[futures[future]].append(verdict_of(*future.result()))
    shutil.rmtree(cache_dir, ignore_errors=True)
    results = {cell: combine(cell_runs) for cell, cell_runs in runs.items()}

    weak_columns = [i for i, name in enumerate(header[0]) if name.startswith("weak")]
    header[0] += ["detector expected", "barracuda", "agrees"]
    header[1] += ["---", "---", "---"]
    disagreements, engine_bugs = [], []
    out_rows = []
    for cell, row in zip(cells, rows):
        verdict, detail = results[cell]
        verdicts = {v for v, _ in runs[cell]}
        agrees = verdicts == {expected[cell]}
        shown = f"{verdict} ({detail})" if detail else verdict
        out_rows.append(row + [expected[cell], shown, "yes" if agrees else "**NO**"])
        print(f"{cell:42} expected {expected[cell]:8} barracuda {shown}")
        if not agrees:
            disagreements.append(cell)
        # The hardware proved a race the engine did not see: it took a racy pair for synchronised.
        if "no race" in verdicts and expected[cell] == "race" and any(int(row[i]) > 0 for i in weak_columns):
            engine_bugs.append(cell)

    with open(args.out, "w") as f:
        for line in header + out_rows:
            f.write("| " + " | ".join(line) + " |\n")
        f.write(f"\ndetector: {len(cells) - len(disagreements)} of {len(cells)} cells agree with the model")
        f.write(f"; disagreements: {', '.join(disagreements)}\n" if disagreements else "\n")
        if engine_bugs:
            f.write(f"engine called synchronised what the hardware showed weak: {', '.join(engine_bugs)}\n")
    print(f"detector: {len(cells) - len(disagreements)} of {len(cells)} cells agree; reports in {args.work}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

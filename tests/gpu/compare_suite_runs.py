#!/usr/bin/env python3
"""Differential check of two GPU-suite runs (run_suite.py --json) made with different barracuda options,
e.g. a reduction of what is logged switched off and on: per program, the exit status and the set of
findings (kind, class, space, source lines) must be the same. RAW and WAR count as one hazard, as the
suite's runner accepts either: a dynamic detector reports the order it observed, and two runs of a racy
program may observe the two accesses in either order.

  compare_suite_runs.py BASELINE.json CANDIDATE.json [--out TABLE.md] [--title TEXT]

Exits 1 when a program differs."""
import argparse
import json
import sys


def findings(result):
    normalised = set()
    for finding in result.get("barracuda_findings") or []:
        hazard = finding.get("hazard")
        if hazard in ("RAW", "WAR"):
            hazard = "RAW/WAR"
        lines = tuple(tuple(line) for line in finding.get("lines", []))
        normalised.add((finding.get("kind"), finding.get("class"), finding.get("space"), hazard, lines))
    return normalised


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("baseline")
    parser.add_argument("candidate")
    parser.add_argument("--out", help="write a markdown table of the comparison here")
    parser.add_argument("--title", default="Differential run of the GPU suite")
    args = parser.parse_args()
    with open(args.baseline) as f:
        baseline = {r["program"]: r for r in json.load(f)}
    with open(args.candidate) as f:
        candidate = {r["program"]: r for r in json.load(f)}
    rows, differing = [], 0
    for program in sorted(set(baseline) | set(candidate)):
        a, b = baseline.get(program), candidate.get(program)
        if a is None or b is None:
            rows.append((program, "only in one run", ""))
            differing += 1
            continue
        status_a, status_b = (a.get("barracuda") or {}).get("status"), (b.get("barracuda") or {}).get("status")
        only_a, only_b = findings(a) - findings(b), findings(b) - findings(a)
        if status_a != status_b or only_a or only_b:
            differing += 1
            rows.append((program, f"exit {status_a} vs {status_b}", f"baseline only {sorted(only_a)}; candidate only {sorted(only_b)}"))
    summary = f"{len(baseline)} programs compared, {differing} differ"
    print(summary)
    for row in rows:
        print(" | ".join(row))
    if args.out:
        with open(args.out, "w") as f:
            f.write(f"# {args.title}\n\n{summary} (exit status and findings: kind, class, space, hazard with RAW and "
                    f"WAR as one, source lines).\n\n")
            if rows:
                f.write("| program | status | findings |\n| --- | --- | --- |\n")
                for row in rows:
                    f.write("| " + " | ".join(row) + " |\n")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())

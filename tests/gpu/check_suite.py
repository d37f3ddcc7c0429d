#!/usr/bin/env python3
"""CPU check of the GPU suite's sources: every program's EXPECT/BUILD lines parse, every marker they
name occurs exactly once, classes/spaces/hazards come from the allowed sets, and the suite is at least
--min-programs big. Prints the counts per category. Exit 1 on the first class of problems found."""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from suitelib.expectations import CLASSES, HAZARDS, SPACES, ExpectationError, discover, parse_program  # noqa: E402


def table(title: str, counts: Counter, keys) -> list[str]:
    return [f"{title:<22} programs"] + [f"  {k:<20} {counts.get(k, 0):>4}" for k in keys]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--min-programs", type=int, default=150)
    args = parser.parse_args()

    programs, errors = [], []
    for path in discover(args.root):
        try:
            programs.append(parse_program(path, args.root))
        except (ExpectationError, OSError, UnicodeDecodeError) as error:
            errors.append(str(error))
    for error in errors:
        print(f"error: {error}")

    groups, kinds, classes, spaces, hazards, lockstep = Counter(), Counter(), Counter(), Counter(), Counter(), Counter()
    for program in programs:
        groups[program.group] += 1
        verdict = program.verdict("independent")
        kinds["race-free" if verdict.clean else "racy"] += 1
        kinds["barrier-divergence"] += bool(verdict.divergences)
        kinds["lockstep variant"] += "lockstep" in program.verdicts
        kinds["extra BUILD flags"] += bool(program.build_flags)
        # A program counts once per category it exercises, however many races it expects.
        for value, counter in ((lambda r: r.race_class, classes), (lambda r: r.space, spaces),
                               (lambda r: r.hazard, hazards)):
            for key in {value(r) for r in verdict.races}:
                counter[key] += 1
        for key in {r.race_class for r in program.verdict("lockstep").races}:
            lockstep[key] += 1
    report = (table("group", groups, sorted(groups)) +
              table("verdict", kinds, ("racy", "race-free", "barrier-divergence", "lockstep variant",
                                       "extra BUILD flags")) +
              table("race class", classes, CLASSES) + table("race class (lockstep)", lockstep, CLASSES) +
              table("memory space", spaces, SPACES) +
              table("hazard", hazards, HAZARDS))
    print("\n".join(report))
    print(f"total: {len(programs)} programs, {len(errors)} with errors")
    if len(programs) < args.min_programs:
        print(f"error: {len(programs)} programs, fewer than the {args.min_programs} required")
        return 1
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Fixed cost of running under barracuda: each PROGRAM natively and under `barracuda run` (after one
untimed run that fills a cubin cache of its own), --repetitions times each; prints the median wall time,
the peak RSS of the process tree and barracuda's overhead over native as a markdown table.

    python3 benchmarks/gpu/startup_cost.py --barracuda build/bin/barracuda PROGRAM [PROGRAM...]

A PROGRAM with arguments is one quoted word ("build/bin/e2e_nvrtc_program clean jitlink"): the cost of
each way code reaches the GPU (NVRTC, JIT links, CuPy) is measured the same way.
"""
import argparse
import os
import shlex
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_bench import run_once  # noqa: E402


def measure(command, repetitions, timeout_s):
    runs = [run_once(command, timeout_s) for _ in range(repetitions)]
    failed = [r for r in runs if r["timed_out"] or r["exit_code"] not in (0, 66)]
    if failed:
        raise SystemExit(f"{' '.join(command)}: exit {failed[0]['exit_code']}\n{failed[0]['output'][-2000:]}")
    return statistics.median(r["wall_s"] for r in runs), max(r["maxrss_kib"] for r in runs) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--barracuda", required=True)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    print("| program | native wall s | barracuda wall s | overhead s | native RSS MiB | barracuda RSS MiB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as cache:
        for program in args.programs:
            command = shlex.split(program)
            tool = [args.barracuda, "run", "-q", "--cache-dir", cache, "--", *command]
            run_once(tool, args.timeout)  # fills the cache: JIT is measured elsewhere (run_bench.py)
            native_wall, native_rss = measure(command, args.repetitions, args.timeout)
            tool_wall, tool_rss = measure(tool, args.repetitions, args.timeout)
            name = " ".join([os.path.basename(command[0]), *(os.path.basename(word) for word in command[1:])])
            print(f"| {name} | {native_wall:.3f} | {tool_wall:.3f} | {tool_wall - native_wall:.3f} "
                  f"| {native_rss:.0f} | {tool_rss:.0f} |", flush=True)


if __name__ == "__main__":
    main()

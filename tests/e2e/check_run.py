#!/usr/bin/env python3
"""Runs an app natively and under `barracuda run`, and checks what a user relies on: the app's output
and exit status are unchanged, the exit code says whether races were found, and the JSON report holds
the expected races with both source lines.

  check_run.py BARRACUDA --races N [--line FILE:LINE ...] [--trace-check PROGRAM] [--tool-option OPT ...] [--keep-report PATH]
               [--incomplete TEXT] [--printed-races N] [--diagnostics N] [--allocation KIND:SIZE:OFFSET[:SYMBOL]] [--allocated-by FUNCTION]
               -- APP [ARGS...]

With --allocation, every race must name that allocation (its JSON `allocation`: kind, size, offset of
the racing address, symbol for a __device__ variable) and the text report must print its Memory: line;
with --allocated-by, one of the allocation's host frames must be in FUNCTION.

With --trace-check, the run also records its event trace and PROGRAM TRACE must exit 0. With
--incomplete, the report must say the analysis is incomplete for a reason that contains TEXT (exit 67
when no race was found); without it, it must not be incomplete. With --printed-races, the tool's
output (every process of the run together) must print exactly N race warnings. With --diagnostics,
the report must hold exactly N diagnostics (barrier divergences and warnings such as redundant barriers).

Exits 77 (skipped) where no GPU is usable, or where the app itself exits 77 natively (something it
needs is missing)."""
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


def allocation_failures(races, expected, allocated_by, text):
    """What is wrong with the allocations the races name (see --allocation, --allocated-by)."""
    failures = []
    if "  Memory: " not in text:
        failures.append("the text report prints no Memory: line")
    for race in races:
        allocation = race.get("allocation")
        if allocation is None:
            failures.append(f"race at {race['address']} names no allocation")
            continue
        if expected:
            kind, size, offset, *symbol = expected.split(":")
            found = [allocation["kind"], str(allocation.get("size")), allocation.get("offset")]
            wanted = [kind, size, offset]
            if symbol:
                found.append(allocation.get("symbol"))
                wanted.append(symbol[0])
            if found != wanted:
                failures.append(f"race at {race['address']} names allocation {allocation}, expected {expected}")
        frames = allocation.get("allocated_by", [])
        if allocated_by and not any(frame.startswith(allocated_by + "+") for frame in frames):
            failures.append(f"no host frame of the allocation is in {allocated_by}: {frames}")
    return failures


def parse_options_and_app(parser):
    """The options before `--` and the app command after it (an error without one)."""
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    app = argv[split + 1:]
    if not app:
        parser.error("no app after --")
    return args, app


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("barracuda")
    parser.add_argument("--races", type=int, required=True, help="unique races the report must hold")
    parser.add_argument("--races-up-to", type=int,
                        help="or up to this many (one pair of accesses is a read-after-write or a "
                             "write-after-read race, or both, depending on the order the host drained them)")
    parser.add_argument("--line", action="append", default=[], help="FILE:LINE one of the races must name")
    parser.add_argument("--trace-check", help="program run on the recorded event trace; must exit 0")
    parser.add_argument("--race-class", help="class every race must have (e.g. inter-device)")
    parser.add_argument("--devices", help="PREVIOUS,CURRENT: the GPU ordinals every race's two accesses must name")
    parser.add_argument("--diagnostics", type=int, help="diagnostics the report must hold")
    parser.add_argument("--printed-races", type=int, help="race warnings the tool's output must print, all processes")
    parser.add_argument("--incomplete", help="text the report's reason for an incomplete analysis must hold")
    parser.add_argument("--allocation", help="KIND:SIZE:OFFSET[:SYMBOL] every race's allocation must have")
    parser.add_argument("--allocated-by", help="function one of the allocation's host frames must be in")
    parser.add_argument("--unlogged", action="append", default=[],
                        help="memory instruction kind the report must list as not logged")
    parser.add_argument("--out-of-bounds", type=int,
                        help="kernel parameter an access of some race must be named out of bounds through")
    parser.add_argument("--native-exit", type=int,
                        help="exit code the app must give natively (the check is not vacuous: the app itself works)")
    parser.add_argument("--global-on-device", choices=["yes", "no"],
                        help="whether some launch must have had its global memory checked on the GPU")
    parser.add_argument("--keep-report", help="copy the run's JSON report here (for a later run's --harden)")
    parser.add_argument("--tool-option", action="append", default=[],
                        help="option for `barracuda run` (e.g. --tool-option=--queue-bytes=1M)")
    args, app = parse_options_and_app(parser)
    if not gpu_available():
        print("skipped: no GPU")
        return 77

    native = subprocess.run(app, capture_output=True, text=True)
    if native.returncode == 77:  # the app itself says what it needs is missing (a Python package)
        print(native.stdout, end="")
        return 77
    if args.native_exit is not None and native.returncode != args.native_exit:
        print(f"FAIL: natively the app exited {native.returncode}, expected {args.native_exit}:\n{native.stdout}")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        report_path = os.path.join(tmp, "report.json")
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        trace_path = os.path.join(tmp, "events.bctrace")
        record = ["--record", trace_path] if args.trace_check else []
        checked = subprocess.run([args.barracuda, "run", "--report", report_path, *record, *args.tool_option, "--"] + app,
                                 capture_output=True, text=True, env=env)
        sys.stderr.write(checked.stderr)
        failures = []
        if args.trace_check:
            trace = subprocess.run([args.trace_check, trace_path], capture_output=True, text=True)
            print(trace.stdout + trace.stderr, end="")
            if trace.returncode != 0:
                failures.append(f"{os.path.basename(args.trace_check)} rejected the event trace")
            if os.environ.get("BARRACUDA_KEEP_TRACE"):
                shutil.copy(trace_path, os.environ["BARRACUDA_KEEP_TRACE"])
        # `--explore=N` runs the app N times: its output N times over.
        runs = next((int(o.split("=", 1)[1]) for o in args.tool_option if o.startswith("--explore=")), 1)
        if checked.stdout != native.stdout * runs:
            failures.append(f"stdout differs:\n--- native\n{native.stdout}--- barracuda\n{checked.stdout}")
        expected_code = 66 if args.races else 67 if args.incomplete else native.returncode
        if checked.returncode != expected_code:
            failures.append(f"exit code {checked.returncode}, expected {expected_code}")
        with open(report_path) as f:
            report = json.load(f)
        if args.keep_report:
            shutil.copy(report_path, args.keep_report)
    summary = report["summary"]
    if args.incomplete:
        if not any(args.incomplete in str(skipped) for skipped in summary["kernels_skipped"]):
            failures.append(f"no reason for an incomplete analysis names '{args.incomplete}': {summary['kernels_skipped']}")
    elif summary["analysis_incomplete"]:
        failures.append(f"analysis incomplete: {summary['kernels_skipped']}")
    if args.diagnostics is not None and len(report["diagnostics"]) != args.diagnostics:
        failures.append(f"{len(report['diagnostics'])} diagnostics, expected {args.diagnostics}: "
                        f"{[(d.get('kind'), d.get('site', {}).get('file'), d.get('site', {}).get('line')) for d in report['diagnostics']]}")
    if args.printed_races is not None:
        printed = checked.stderr.count("WARNING: barracuda: data race")
        if printed != args.printed_races:
            failures.append(f"{printed} race warnings printed, expected {args.printed_races}")
    most = max(args.races, args.races_up_to or 0)
    if not args.races <= summary["unique_races"] <= most:
        expected = f"{args.races}" if most == args.races else f"{args.races} to {most}"
        failures.append(f"{summary['unique_races']} unique races, expected {expected}")
    if summary["barrier_divergences"] != 0:
        failures.append(f"{summary['barrier_divergences']} barrier divergences in programs that have none")
    named = set()
    for race in report["races"]:
        for access in (race["current"], race["previous"]):
            site = access["site"]
            named.add(f"{os.path.basename(site['file'])}:{site['line']}")
    for race in report["races"]:
        if args.race_class and race["class"] != args.race_class:
            failures.append(f"a race of class {race['class']}, expected {args.race_class}")
        if args.devices:
            devices = f"{race['previous'].get('device')},{race['current'].get('device')}"
            if devices != args.devices:
                failures.append(f"a race between devices {devices}, expected {args.devices}")
    for line in args.line:
        if line not in named:
            failures.append(f"no race names {line} (races name {sorted(named)})")
    if args.out_of_bounds is not None:
        through = {access["out_of_bounds"]["parameter"] for race in report["races"]
                   for access in (race["current"], race["previous"]) if "out_of_bounds" in access}
        if args.out_of_bounds not in through:
            failures.append(f"no access named out of bounds through parameter {args.out_of_bounds} (named: {sorted(through)})")
    listed = {entry["kind"] for entry in summary.get("unlogged_instructions", [])}
    for kind in args.unlogged:
        if kind not in listed:
            failures.append(f"'{kind}' not listed as unlogged (listed: {sorted(listed)})")
    if args.global_on_device:
        on_device = report.get("statistics", {}).get("launches_global_on_device", 0)
        if (on_device > 0) != (args.global_on_device == "yes"):
            reason = report.get("statistics", {}).get("global_on_host_reason", "")
            failures.append(f"{on_device} launches had global memory checked on the GPU ({reason})")
    if args.allocation or args.allocated_by:
        failures += allocation_failures(report["races"], args.allocation, args.allocated_by, checked.stderr)
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(report['races'])} races, {summary['events']} events, {summary['launches']} launches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

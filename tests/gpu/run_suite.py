#!/usr/bin/env python3
"""Runs the GPU concurrency suite: each program natively, under compute-sanitizer racecheck, and
(with --barracuda) under barracuda, compares what each reports with the program's EXPECT lines and
writes a markdown table (RESULTS.md) plus the raw results as JSON.

Exit status: 0 when every program ran natively with status 0 (and, with --strict, barracuda agreed in
full on every program); 1 otherwise; 77 when no GPU is present (nvidia-smi missing or failing).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from suitelib.detectors import compare, findings_from_barracuda_report, findings_from_racecheck  # noqa: E402
from suitelib.expectations import parse_program  # noqa: E402
from suitelib.results import ProgramResult, Run, write_markdown  # noqa: E402

SKIP = 77


def gpu_present() -> bool:
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    return subprocess.run([smi, "-L"], capture_output=True).returncode == 0


def timed(command: list[str], timeout: float, cwd: Path) -> Run:
    start = time.perf_counter()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=cwd, errors="replace")
        return Run(proc.returncode, time.perf_counter() - start, proc.stdout + proc.stderr)
    except subprocess.TimeoutExpired as expired:
        out = (expired.stdout or b"") + (expired.stderr or b"")
        return Run(None, time.perf_counter() - start, out.decode(errors="replace") if isinstance(out, bytes) else out)


def run_racecheck(sanitizer: str, exe: Path, timeout: float) -> tuple[Run, list | None]:
    run = timed([sanitizer, "--tool", "racecheck", str(exe)], timeout, exe.parent)
    return run, findings_from_racecheck(run.output)


def run_barracuda(barracuda: str, extra: list[str], exe: Path, timeout: float,
                  trace: Path | None) -> tuple[Run, list | None]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        record = ["--record", str(trace)] if trace else []
        run = timed([barracuda, "run", "--report", str(report), *record, *extra, "--", str(exe)], timeout, exe.parent)
        if not report.exists():
            return run, None
        try:
            return run, findings_from_barracuda_report(json.loads(report.read_text()))
        except (ValueError, TypeError, AttributeError) as error:
            run.output += f"\nunreadable report: {error}"
            return run, None


def run_program(program_id: str, expected, exe: Path, sanitizer: str | None, args) -> ProgramResult:
    result = ProgramResult(program_id, expected)
    result.native = timed([str(exe)], args.timeout, exe.parent)
    if sanitizer:
        result.racecheck, result.racecheck_findings = run_racecheck(sanitizer, exe, args.timeout * 4)
    if args.barracuda:
        trace = None
        if args.traces:
            args.traces.mkdir(parents=True, exist_ok=True)
            trace = args.traces / f"{program_id.replace('/', '.')}.bctrace"
        result.barracuda, result.barracuda_findings = run_barracuda(args.barracuda, args.barracuda_arg, exe,
                                                                    args.timeout * 4, trace)
        if result.barracuda_findings is not None:
            result.barracuda_agreement = compare(expected, result.barracuda_findings)
    if args.logs:
        args.logs.mkdir(parents=True, exist_ok=True)
        for tool in ("native", "racecheck", "barracuda"):
            run = getattr(result, tool)
            if run is not None:
                (args.logs / f"{program_id.replace('/', '.')}.{tool}.log").write_text(run.output)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifest", required=True, type=Path, help="gpu_suite_manifest.json from the build")
    parser.add_argument("--only", default="", help="regex on group/name: run the matching programs only")
    parser.add_argument("--barracuda", help="path of the barracuda CLI: also run each program under it")
    parser.add_argument("--barracuda-arg", action="append", default=[], help="extra option for 'barracuda run'")
    parser.add_argument("--model", choices=("independent", "lockstep"), default="independent",
                        help="warp model barracuda runs with: picks EXPECT or EXPECT-LOCKSTEP lines")
    parser.add_argument("--no-racecheck", action="store_true", help="skip compute-sanitizer racecheck")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per run before it counts as hung")
    parser.add_argument("--out", type=Path, default=Path("RESULTS.md"), help="markdown table to write")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--logs", type=Path, help="write every run's output to LOGS/<group>.<name>.<tool>.log")
    parser.add_argument("--traces", type=Path,
                        help="record each barracuda run's event trace as TRACES/<group>.<name>.bctrace")
    parser.add_argument("--resume", action="store_true",
                        help="keep the results already in --json and run only the programs missing there")
    parser.add_argument("--budget", type=float, default=0,
                        help="start no new program after this many seconds (0: no limit); rerun with --resume")
    parser.add_argument("--strict", action="store_true", help="fail unless barracuda agrees in full everywhere")
    parser.add_argument("--jobs", type=int, default=1,
                        help="programs run at once (each program's runs stay sequential; >1 makes times noisier)")
    args = parser.parse_args()

    if not gpu_present():
        print("run_suite: no GPU (nvidia-smi missing or failing): skipped")
        return SKIP
    manifest = json.loads(args.manifest.read_text())
    root = Path(manifest["source_root"])
    if any(not entry["executable"] for entry in manifest["programs"]):
        print(f"run_suite: {args.manifest} lists no executables (a sanitizer build?): use the release build's")
        return 2
    sanitizer = None if args.no_racecheck else shutil.which("compute-sanitizer")
    if not args.no_racecheck and not sanitizer:
        print("run_suite: compute-sanitizer not on PATH: racecheck column left empty")
    selector = re.compile(args.only)
    previous = {}
    if args.resume and args.json and args.json.exists():
        previous = {entry["program"]: entry for entry in json.loads(args.json.read_text())}
    started = time.monotonic()
    results: list[ProgramResult] = []
    pending = []
    left = 0
    for entry in manifest["programs"]:
        program_id = f"{entry['group']}/{entry['name']}"
        if not selector.search(program_id):
            continue
        expected = parse_program(root / entry["path"], root).verdict(args.model)
        if program_id in previous:
            results.append(ProgramResult.from_json(previous[program_id], expected))
        else:
            pending.append((program_id, expected, Path(entry["executable"])))

    def run_pending(item):
        if args.budget and time.monotonic() - started > args.budget:
            return None
        result = run_program(*item, sanitizer, args)
        print(result.summary_line(), flush=True)
        return result

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for result in pool.map(run_pending, pending):
            if result is None:
                left += 1
            else:
                results.append(result)
    order = {f"{entry['group']}/{entry['name']}": index for index, entry in enumerate(manifest["programs"])}
    results.sort(key=lambda r: order[r.program])

    device = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    command = " ".join(sys.argv)
    write_markdown(args.out, results, device, command, args.model)
    if args.json:
        args.json.write_text(json.dumps([r.as_json() for r in results], indent=1))
    print(f"run_suite: wrote {args.out}")
    if left:
        print(f"run_suite: budget spent, {left} programs not run yet: rerun the same command with --resume")
    failed = [r.program for r in results if r.native is None or r.native.status != 0]
    if failed:
        print("run_suite: programs that failed natively: " + ", ".join(failed))
    disagreed = [r.program for r in results
                 if r.barracuda is not None and not (r.barracuda_agreement and r.barracuda_agreement.detail)]
    if args.strict and disagreed:
        print("run_suite: barracuda disagreed on: " + ", ".join(disagreed))
    return 1 if failed or (args.strict and disagreed) else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs the app corpus (tests/apps/*.cu, built by tests/apps/CMakeLists.txt) natively and under
`barracuda run`, and checks for each program that the tool left it alone (same stdout; exit code 0
natively) and that its verdict is the one the program's header expects:

  // APP-EXPECT: clean     tool exit 0; the JSON report holds no race, no barrier divergence, no warning
  // APP-EXPECT: racy      tool exit 66; a race names a line marked "// APP-RACE" (either access)
  // APP-UNCHECKED: TEXT   (optional) some code may go unchecked, for a reason containing TEXT (library
                           kernels without PTX, a kernel fault): a clean program may then exit 67

Writes a markdown table (one row per program, with a verdict column) to --markdown and prints it, and
the tool's output for programs that failed.

  run_corpus.py BARRACUDA --manifest BUILD/apps_manifest.json --markdown OUT.md [--timeout S] [--reports DIR]
                [--only NAME ...]

Exit status 0 when every program behaved and got its expected verdict, 1 otherwise, 77 without a GPU."""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_native import run  # noqa: E402

RACES_FOUND = 66
ANALYSIS_INCOMPLETE = 67
_EXPECT = re.compile(r"^//\s*APP-EXPECT:\s*(\S+)\s*$")
_UNCHECKED = re.compile(r"^//\s*APP-UNCHECKED:\s*(.+?)\s*$")
_RACE_MARK = re.compile(r"//\s*APP-RACE\b")


class ExpectationError(ValueError):
    pass


def parse_expectation(text, filename):
    """The expectation a program's source states: {"verdict", "race_lines" (FILE:LINE list), "unchecked"}."""
    verdicts, unchecked, race_lines = [], [], []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if match := _EXPECT.match(stripped):
            verdicts.append(match.group(1))
        elif match := _UNCHECKED.match(stripped):
            unchecked.append(match.group(1))
        elif _RACE_MARK.search(line) and not stripped.startswith("//"):
            race_lines.append(f"{filename}:{number}")
    if len(verdicts) != 1 or verdicts[0] not in ("clean", "racy"):
        raise ExpectationError(f"{filename}: needs exactly one '// APP-EXPECT: clean' or '// APP-EXPECT: racy' line")
    if len(unchecked) > 1:
        raise ExpectationError(f"{filename}: more than one APP-UNCHECKED line")
    if verdicts[0] == "racy" and not race_lines:
        raise ExpectationError(f"{filename}: a racy program marks a racing line with '// APP-RACE'")
    if verdicts[0] == "clean" and race_lines:
        raise ExpectationError(f"{filename}: a clean program marks a racing line")
    return {"verdict": verdicts[0], "race_lines": race_lines, "unchecked": unchecked[0] if unchecked else None}


def sites_named(report):
    """FILE:LINE (file's base name) of both accesses of every race in a JSON report, with the frames
    their code was inlined into."""
    named = set()
    for race in report.get("races", []):
        for access in (race["current"], race["previous"]):
            site = access["site"]
            for frame in [site] + site.get("inlined_at", []):
                named.add(f"{os.path.basename(frame['file'])}:{frame['line']}")
    return named


def judge(expectation, report, tool_code):
    """(verdict text, problems) for one tool run: what the report says and how it falls short."""
    if report is None:
        return "no report", ["no JSON report was written"]
    summary = report["summary"]
    races, divergences, warnings = summary["unique_races"], summary["barrier_divergences"], summary["warnings"]
    skipped = summary["kernels_skipped"]
    problems = []
    allowed = expectation["unchecked"]
    for entry in skipped:
        if allowed is None or allowed not in entry["reason"]:
            problems.append(f"not checked: {entry['kernel']}: {entry['reason']}")
    if expectation["verdict"] == "clean":
        verdict = "clean" if races == 0 and divergences == 0 else "racy"
        expected_code = ANALYSIS_INCOMPLETE if skipped else 0
        if races:
            problems.append(f"{races} races in a race-free program (lines {sorted(sites_named(report))})")
        if warnings:
            problems.append(f"{warnings} warnings in a race-free program")
    else:
        verdict = "racy" if races or divergences else "clean"
        expected_code = RACES_FOUND
        missing = [line for line in expectation["race_lines"] if line not in sites_named(report)]
        if not races:
            problems.append("no race found")
        elif missing:
            problems.append(f"no race names {', '.join(missing)} (races name {sorted(sites_named(report))})")
    if divergences:
        problems.append(f"{divergences} barrier divergences")
    if tool_code != expected_code:
        problems.append(f"tool exit {tool_code}, expected {expected_code}")
    details = f"{races} races" + (f", {warnings} warnings" if warnings else "")
    return f"{verdict} ({details})", problems


def load_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("barracuda")
    parser.add_argument("--manifest", required=True, help="apps_manifest.json of the corpus build")
    parser.add_argument("--markdown", required=True, help="where the results table goes")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per run")
    parser.add_argument("--reports", help="keep each program's JSON report in this directory")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="run only this program (repeatable)")
    args = parser.parse_args()
    with open(args.manifest) as f:
        programs = json.load(f)["programs"]
    if args.only:
        unknown = set(args.only) - {p["name"] for p in programs}
        if unknown:
            parser.error(f"not in the manifest: {', '.join(sorted(unknown))}")
        programs = [p for p in programs if p["name"] in args.only]
    expectations = {}
    for program in programs:
        with open(program["source"]) as f:
            expectations[program["name"]] = parse_expectation(f.read(), os.path.basename(program["source"]))
    smi = shutil.which("nvidia-smi")
    gpu = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True) if smi else None
    if gpu is None or gpu.returncode != 0:
        print("skipped: no GPU")
        return 77
    version = subprocess.run([args.barracuda, "--version"], capture_output=True, text=True).stdout.strip()

    rows = [f"App corpus on {gpu.stdout.strip().splitlines()[0]}, {version}, "
            f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC", "",
            "| program | expected | verdict | native exit | tool exit | stdout | not checked | native s | tool s | result |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        reports = args.reports or tmp
        os.makedirs(reports, exist_ok=True)
        for program in programs:
            name, expectation = program["name"], expectations[program["name"]]
            native_code, native_out, native_err, native_s = run([program["executable"]], args.timeout)
            report_path = os.path.join(reports, name + ".json")
            code, out, err, tool_s = run([args.barracuda, "run", "--report", report_path, "--", program["executable"]],
                                         args.timeout, env)
            report = load_report(report_path)
            verdict, problems = judge(expectation, report, code)
            if native_code != 0:
                problems.insert(0, f"native exit {native_code}")
            if out != native_out:
                problems.insert(0, "stdout differs from native")
            skipped = "; ".join(f"{s['kernel']}: {s['reason']}" for s in report["summary"]["kernels_skipped"]) \
                if report else "-"
            expected = expectation["verdict"]
            if expectation["race_lines"]:
                expected += " " + ", ".join(expectation["race_lines"])
            rows.append(f"| {name} | {cell(expected)} | {cell(verdict)} | {native_code} | {code} | "
                        f"{'same' if out == native_out else 'DIFFERS'} | {cell(skipped or 'none')} | "
                        f"{native_s:.2f} | {tool_s:.2f} | {cell('; '.join(problems)) if problems else 'ok'} |")
            if problems:
                failed = True
                print(f"=== {name}: {'; '.join(problems)}\n=== native stdout\n{native_out}=== native stderr\n{native_err}"
                      f"=== barracuda stdout\n{out}=== barracuda stderr\n{err}")
    print("\n".join(rows))
    with open(args.markdown, "w") as f:
        f.write("\n".join(rows) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

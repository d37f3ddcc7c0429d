"""Per-program results of a suite run and the markdown table (RESULTS.md) made from them."""
from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, field
from pathlib import Path

from .detectors import Agreement, Finding, compare
from .expectations import Verdict


@dataclass
class Run:
    status: int | None  # None: killed after the timeout
    seconds: float
    output: str


@dataclass
class ProgramResult:
    program: str
    expected: Verdict
    native: Run | None = None
    racecheck: Run | None = None
    racecheck_findings: list[Finding] | None = None
    barracuda: Run | None = None
    barracuda_findings: list[Finding] | None = None
    barracuda_agreement: Agreement | None = None

    def summary_line(self) -> str:
        parts = [f"{self.program}: expected {self.expected}", f"native {_status(self.native)}"]
        if self.racecheck:
            parts.append(f"racecheck {_findings(self.racecheck_findings, self.racecheck)}")
        if self.barracuda:
            parts.append(f"barracuda {_findings(self.barracuda_findings, self.barracuda)} "
                         f"({self.barracuda_agreement or 'no report'})")
        return " | ".join(parts)

    def as_json(self) -> dict:
        return {"program": self.program, "expected": str(self.expected), "native": _run_json(self.native),
                "racecheck": _run_json(self.racecheck), "racecheck_findings": _findings_json(self.racecheck_findings),
                "barracuda": _run_json(self.barracuda), "barracuda_findings": _findings_json(self.barracuda_findings)}

    @classmethod
    def from_json(cls, data: dict, expected: Verdict) -> "ProgramResult":
        """Inverse of as_json (without the runs' output); the agreement is recomputed."""
        result = cls(data["program"], expected, _run_from(data.get("native")), _run_from(data.get("racecheck")),
                     _findings_from(data.get("racecheck_findings")), _run_from(data.get("barracuda")),
                     _findings_from(data.get("barracuda_findings")))
        if result.barracuda_findings is not None:
            result.barracuda_agreement = compare(expected, result.barracuda_findings)
        return result


# A run that died of a signal (a negative status from subprocess, or 128 + the signal as the barracuda
# CLI reports the process it ran) keeps the end of its output: the crash report's frames, which an
# intermittent crash in a suite run otherwise takes with it.
DIED_OUTPUT_CHARS = 6000


def died_of_signal(run: Run) -> bool:
    return run.status is not None and (run.status < 0 or run.status > 128)


def _run_json(run: Run | None):
    if run is None:
        return None
    data = {"status": run.status, "seconds": round(run.seconds, 4)}
    if died_of_signal(run):
        data["output_tail"] = run.output[-DIED_OUTPUT_CHARS:]
    return data


def _run_from(data: dict | None) -> Run | None:
    return None if data is None else Run(data["status"], data["seconds"], "")


def _findings_json(findings: list[Finding] | None):
    if findings is None:
        return None
    return [{"kind": f.kind, "class": f.race_class, "space": f.space, "hazard": f.hazard,
             "lines": sorted([file, line] for file, line in f.lines)} for f in findings]


def _findings_from(data: list | None) -> list[Finding] | None:
    if data is None:
        return None
    return [Finding(f["kind"], f["class"], f["space"], f["hazard"],
                    frozenset((file, line) for file, line in f["lines"])) for f in data]


def _status(run: Run | None) -> str:
    if run is None:
        return "-"
    return "timeout" if run.status is None else ("ok" if run.status == 0 else f"exit {run.status}")


def _findings(findings: list[Finding] | None, run: Run | None) -> str:
    if run is None:
        return "-"
    if findings is None:
        return f"error ({_status(run)})"
    return "; ".join(str(f) for f in findings) if findings else "no-race"


def _seconds(run: Run | None) -> str:
    return "-" if run is None else f"{run.seconds:.2f}"


def _percent(hits: int, total: int) -> str:
    return "-" if total == 0 else f"{100.0 * hits / total:.1f}% ({hits}/{total})"


def _geomean_slowdown(results: list[ProgramResult], tool: str) -> str:
    ratios = [getattr(r, tool).seconds / r.native.seconds for r in results
              if getattr(r, tool) and getattr(r, tool).status == 0 and r.native and r.native.seconds > 0]
    if not ratios:
        return "-"
    return f"{math.exp(sum(math.log(x) for x in ratios) / len(ratios)):.2f}x over {len(ratios)} programs"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _tool_column(results: list[ProgramResult], tool: str) -> dict[str, str]:
    """The summary rows of one detector over the programs it ran on; a run that produced no findings
    (crash, no report, unparsable output) counts as a disagreement."""
    ran = [r for r in results if getattr(r, tool) is not None]

    def found(r: ProgramResult):
        return getattr(r, f"{tool}_findings")

    agreeing = [r for r in ran if found(r) is not None and r.expected.clean == (not found(r))]
    racy = [r for r in ran if not r.expected.clean]
    full = [r for r in ran if r.barracuda_agreement and r.barracuda_agreement.detail]
    return {
        "verdict agreement": _percent(len(agreeing), len(ran)),
        "full agreement (class, space, hazard, both lines)": _percent(len(full), len(ran)) if tool == "barracuda"
        else "n/a",
        "racy programs flagged": _percent(sum(1 for r in racy if found(r)), len(racy)),
        "false alarms on race-free programs": str(sum(1 for r in ran if r.expected.clean and found(r))),
        "geometric-mean slowdown vs native": _geomean_slowdown(results, tool),
    }


def write_markdown(path: Path, results: list[ProgramResult], device: str, command: str, model: str) -> None:
    clean = sum(1 for r in results if r.expected.clean)
    failures = sum(1 for r in results if r.native is None or r.native.status != 0)
    racecheck, barracuda = _tool_column(results, "racecheck"), _tool_column(results, "barracuda")
    lines = [
        "# GPU concurrency suite: results", "",
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"- device: {device or 'unknown'}",
        f"- command: `{command}`",
        f"- warp model of the expectations: {model}",
        f"- programs: {len(results)} ({len(results) - clean} with expected findings, {clean} race-free); "
        f"native failures: {failures}", "",
        "| | racecheck | barracuda |", "|---|---|---|",
    ]
    lines += [f"| {row} | {racecheck[row]} | {barracuda[row]} |" for row in racecheck]
    lines += [
        "", "Times are wall-clock seconds of the whole process (CUDA context creation included).", "",
        "| program | expected | native | barracuda | racecheck | t native | t racecheck | t barracuda |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        barracuda_cell = "-" if r.barracuda is None else \
            f"{_findings(r.barracuda_findings, r.barracuda)} **{r.barracuda_agreement or 'no report'}**"
        cells = (r.program, str(r.expected), _status(r.native), barracuda_cell,
                 _findings(r.racecheck_findings, r.racecheck), _seconds(r.native), _seconds(r.racecheck),
                 _seconds(r.barracuda))
        lines.append("| " + " | ".join(_cell(x) for x in cells) + " |")
    path.write_text("\n".join(lines) + "\n")

"""What the detectors said, reduced to one shape: a list of findings with their source lines.

Two inputs: compute-sanitizer racecheck's text output, and barracuda's JSON report. The JSON schema
is owned by the report component; `findings_from_barracuda_report` is the only place that knows it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from .expectations import Race, Verdict


@dataclass(frozen=True)
class Finding:
    """One reported race (kind == "race") or barrier divergence (kind == "barrier-divergence")."""
    kind: str
    race_class: str = ""
    space: str = ""
    hazard: str = ""
    lines: frozenset = frozenset()  # {(file basename, line)}; one entry for a divergence

    def __str__(self) -> str:
        where = " ".join(f"{f}:{n}" for f, n in sorted(self.lines))
        fields = " ".join(x for x in (self.race_class, self.space, self.hazard) if x)
        return f"{self.kind} {fields} {where}".replace("  ", " ").strip()


# racecheck prints, per hazard pair (CUDA 11.x-13.x):
#   ========= Error: Race reported between Write access at k(int *)+0x90 in /src/a.cu:12
#   =========     and Read access at k(int *)+0xc0 in /src/a.cu:14 [62 hazards]
# and a summary line "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)".
_RC_FIRST = re.compile(r"(Error|Warning): Race reported between (\w+) access at .*? in (\S+?):(\d+)")
_RC_SECOND = re.compile(r"and (\w+) access at .*? in (\S+?):(\d+)")
_RC_SUMMARY = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)")


def _hazard(first_access: str, second_access: str) -> str:
    kinds = {first_access.lower(), second_access.lower()}
    if kinds == {"write"}:
        return "WAW"
    return "RAW" if first_access.lower() == "write" else "WAR"


def findings_from_racecheck(output: str) -> list[Finding] | None:
    """Races racecheck reported (errors only; its warnings are not races), or None when the output has
    no RACECHECK SUMMARY (the tool did not finish)."""
    summary = _RC_SUMMARY.search(output)
    if not summary:
        return None
    findings: list[Finding] = []
    lines = output.splitlines()
    for index, text in enumerate(lines):
        first = _RC_FIRST.search(text)
        if not first or first.group(1) != "Error":
            continue
        second = _RC_SECOND.search(lines[index + 1]) if index + 1 < len(lines) else None
        sites = {(PurePath(first.group(3)).name, int(first.group(4)))}
        hazard = ""
        if second:
            sites.add((PurePath(second.group(2)).name, int(second.group(3))))
            hazard = _hazard(first.group(2), second.group(1))
        findings.append(Finding("race", space="shared", hazard=hazard, lines=frozenset(sites)))
    if not findings and int(summary.group(2)) > 0:
        findings.append(Finding("race", space="shared"))
    return findings


def _site(access: dict) -> tuple[str, int]:
    return (PurePath(str(access.get("file", "?"))).name, int(access.get("line", 0)))


# Hazard names of the report schema (src/report/names.h) in the EXPECT lines' spelling.
_REPORT_HAZARDS = {"read-after-write": "RAW", "write-after-read": "WAR", "write-write": "WAW",
                   "atomic-plain": "atomic-plain"}


def findings_from_barracuda_report(report: dict) -> list[Finding]:
    """THE adapter for barracuda's JSON report (schema "barracuda-report" v1, src/report/json_report.h):
      {"races": [{"class": "inter-block", "space": "global", "hazard": "write-write",
                  "current": {"site": {"file": "/abs/a.cu", "line": 12, ...}, ...},
                  "previous": {"site": {...}, ...}, ...}],
       "diagnostics": [{"kind": "barrier-divergence", "site": {"file": ..., "line": ...}, ...}]}
    Races marked "same_value" are the warning class "same-value write-write", and races with an
    "unfenced_acquire" object the warning class "unfenced acquire": warnings, not races."""
    findings = []
    for race in report.get("races", []):
        if race.get("same_value") or race.get("unfenced_acquire"):
            continue
        sites = frozenset(_site(race[side]["site"]) for side in ("current", "previous"))
        hazard = _REPORT_HAZARDS.get(race.get("hazard", ""), race.get("hazard", ""))
        findings.append(Finding("race", race.get("class", ""), race.get("space", ""), hazard, sites))
    for diagnostic in report.get("diagnostics", []):
        if diagnostic.get("kind") == "barrier-divergence":
            findings.append(Finding("barrier-divergence", lines=frozenset({_site(diagnostic["site"])})))
    return findings


def _hazards_match(expected: str, found: str) -> bool:
    # RAW and WAR name the same pair of lines seen in opposite orders; which one a dynamic detector
    # observes first depends on the schedule, so either is accepted for the other.
    read_write = {"RAW", "WAR"}
    return expected == found or (expected in read_write and found in read_write)


def _race_matches(expected: Race, found: Finding) -> bool:
    return (found.kind == "race" and found.lines == expected.lines() and found.race_class == expected.race_class
            and found.space == expected.space and _hazards_match(expected.hazard, found.hazard))


@dataclass(frozen=True)
class Agreement:
    verdict: bool  # racy/clean matches (any finding vs none)
    detail: bool   # every expected finding reported with its fields and lines, nothing else reported

    def __str__(self) -> str:
        return "ok" if self.detail else ("verdict" if self.verdict else "WRONG")


def compare(expected: Verdict, findings: list[Finding]) -> Agreement:
    verdict_ok = expected.clean == (not findings)
    unmatched = list(findings)
    for race in expected.races:
        hit = next((f for f in unmatched if _race_matches(race, f)), None)
        if hit is None:
            return Agreement(verdict_ok, False)
        unmatched.remove(hit)
    for divergence in expected.divergences:
        site = frozenset({(divergence.site.file.name, divergence.site.line)})
        hit = next((f for f in unmatched if f.kind == "barrier-divergence" and f.lines == site), None)
        if hit is None:
            return Agreement(verdict_ok, False)
        unmatched.remove(hit)
    return Agreement(verdict_ok, verdict_ok and not unmatched)

"""Reads the machine-readable verdict lines of a suite program.

A program is one .cu file, or a directory of .cu files whose EXPECT lines live in main.cu.
Grammar (one item per line, inside a // comment):
    // EXPECT: race <class> <space> <hazard> <markerA> <markerB>
    // EXPECT: no-race
    // EXPECT: barrier-divergence <marker>
    // EXPECT-LOCKSTEP: ...         same forms; the verdict under the lockstep warp model
    // BUILD: <extra nvcc flags>
and a marker is `// @NAME` at the end of a source line; every marker named by an EXPECT line must
occur exactly once among the program's files and the suite headers they include (`#include "x.cuh"`
naming a file at the suite root, where kernels shared by several variant programs live).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

CLASSES = ("intra-warp", "inter-warp", "inter-block", "branch-ordering", "scoped")
SPACES = ("global", "shared")
HAZARDS = ("RAW", "WAR", "WAW", "atomic-plain")
MODELS = ("independent", "lockstep")

_DIRECTIVE = re.compile(r"//\s*(EXPECT|EXPECT-LOCKSTEP|BUILD):(.*)$")
_MARKER = re.compile(r"//\s*@([A-Za-z_][A-Za-z0-9_]*)\b")
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+\.cuh)"', re.MULTILINE)


class ExpectationError(ValueError):
    """A program's EXPECT/BUILD/marker lines are malformed; the message names file and line."""


@dataclass(frozen=True)
class SourceLine:
    file: Path
    line: int

    def __str__(self) -> str:
        return f"{self.file.name}:{self.line}"


@dataclass(frozen=True)
class Race:
    race_class: str
    space: str
    hazard: str
    first: SourceLine
    second: SourceLine

    def lines(self) -> frozenset[tuple[str, int]]:
        return frozenset({(self.first.file.name, self.first.line), (self.second.file.name, self.second.line)})

    def __str__(self) -> str:
        return f"race {self.race_class} {self.space} {self.hazard} {self.first} {self.second}"


@dataclass(frozen=True)
class BarrierDivergence:
    site: SourceLine

    def __str__(self) -> str:
        return f"barrier-divergence {self.site}"


@dataclass
class Verdict:
    """What one warp model must report: no findings means the program is race-free."""
    races: list[Race] = field(default_factory=list)
    divergences: list[BarrierDivergence] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.races and not self.divergences

    def __str__(self) -> str:
        items = [str(r) for r in self.races] + [str(d) for d in self.divergences]
        return "; ".join(items) if items else "no-race"


@dataclass
class Program:
    name: str
    group: str
    sources: list[Path]
    build_flags: list[str]
    verdicts: dict[str, Verdict]

    def verdict(self, model: str) -> Verdict:
        return self.verdicts.get(model, self.verdicts["independent"])


def program_sources(path: Path) -> list[Path]:
    """The .cu/.cuh files of a program (a file, or a directory of them), main file first."""
    if path.is_file():
        return [path]
    files = sorted(p for p in path.iterdir() if p.suffix in (".cu", ".cuh"))
    files.sort(key=lambda p: p.name != "main.cu")
    return files


def _suite_headers(sources: list[Path], root: Path) -> list[Path]:
    """The suite-root headers the sources include directly."""
    names = sorted({name for src in sources for name in _INCLUDE.findall(src.read_text())})
    return [root / name for name in names if (root / name).is_file()]


def _markers(sources: list[Path]) -> dict[str, list[SourceLine]]:
    found: dict[str, list[SourceLine]] = {}
    for src in sources:
        for number, text in enumerate(src.read_text().splitlines(), start=1):
            if _DIRECTIVE.search(text):
                continue
            for name in _MARKER.findall(text):
                found.setdefault(name, []).append(SourceLine(src, number))
    return found


def _site(markers: dict[str, list[SourceLine]], name: str, where: str) -> SourceLine:
    sites = markers.get(name, [])
    if len(sites) != 1:
        raise ExpectationError(f"{where}: marker @{name} occurs {len(sites)} times (must be exactly once)")
    return sites[0]


def _parse_item(words: list[str], markers: dict[str, list[SourceLine]], where: str):
    if words == ["no-race"]:
        return None
    if len(words) == 2 and words[0] == "barrier-divergence":
        return BarrierDivergence(_site(markers, words[1], where))
    if len(words) == 6 and words[0] == "race":
        _, race_class, space, hazard, first, second = words
        for value, allowed, what in ((race_class, CLASSES, "class"), (space, SPACES, "space"),
                                     (hazard, HAZARDS, "hazard")):
            if value not in allowed:
                raise ExpectationError(f"{where}: {what} '{value}' is not one of {', '.join(allowed)}")
        return Race(race_class, space, hazard, _site(markers, first, where), _site(markers, second, where))
    raise ExpectationError(f"{where}: cannot parse '{' '.join(words)}' (expected 'no-race', "
                           "'race CLASS SPACE HAZARD A B' or 'barrier-divergence A')")


def parse_program(path: Path, root: Path) -> Program:
    """Parses one program (file or directory) of the suite rooted at `root`."""
    sources = program_sources(path)
    if not sources:
        raise ExpectationError(f"{path}: no .cu files")
    markers = _markers(sources + _suite_headers(sources, root))
    items: dict[str, list] = {}
    build_flags: list[str] = []
    for src in sources:
        for number, text in enumerate(src.read_text().splitlines(), start=1):
            match = _DIRECTIVE.search(text)
            if not match:
                continue
            where = f"{src}:{number}"
            kind, words = match.group(1), match.group(2).split()
            if kind == "BUILD":
                if not words:
                    raise ExpectationError(f"{where}: empty BUILD line")
                build_flags += words
                continue
            if src != sources[0]:
                raise ExpectationError(f"{where}: EXPECT lines belong in {sources[0].name}")
            model = "lockstep" if kind == "EXPECT-LOCKSTEP" else "independent"
            items.setdefault(model, []).append((_parse_item(words, markers, where), where))
    if "independent" not in items:
        raise ExpectationError(f"{sources[0]}: no EXPECT line")
    verdicts = {}
    for model, entries in items.items():
        verdict = Verdict()
        for item, where in entries:
            if item is None and len(entries) > 1:
                raise ExpectationError(f"{where}: 'no-race' must be the only EXPECT line of its model")
            if isinstance(item, Race):
                verdict.races.append(item)
            elif isinstance(item, BarrierDivergence):
                verdict.divergences.append(item)
        verdicts[model] = verdict
    group = path.relative_to(root).parts[0]
    return Program(path.stem if path.is_file() else path.name, group, sources, build_flags, verdicts)


def discover(root: Path) -> list[Path]:
    """Every program of the suite: group/<name>.cu and group/<name>/ directories, sorted."""
    found = []
    for group in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))
                        and p.name != "suitelib"):
        for entry in sorted(group.iterdir()):
            if (entry.is_file() and entry.suffix == ".cu") or entry.is_dir():
                found.append(entry)
    return found

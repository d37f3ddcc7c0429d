#!/usr/bin/env python3
"""compare_suite_runs.py on small hand-written runs: hazard direction is not a difference, anything else is."""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).with_name("compare_suite_runs.py")


def result(program, status, *findings):
    return {"program": program, "barracuda": {"status": status, "seconds": 1.0}, "barracuda_findings": list(findings)}


def race(hazard, cls="inter-block", lines=(("a.cu", 7), ("a.cu", 9))):
    return {"kind": "race", "class": cls, "space": "global", "hazard": hazard, "lines": [list(l) for l in lines]}


class CompareSuiteRuns(unittest.TestCase):
    def compare(self, baseline, candidate):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, run in (("a.json", baseline), ("b.json", candidate)):
                path = Path(tmp) / name
                path.write_text(json.dumps(run))
                paths.append(str(path))
            table = Path(tmp) / "table.md"
            done = subprocess.run([sys.executable, str(SCRIPT), *paths, "--out", str(table)], capture_output=True, text=True)
            return done.returncode, done.stdout, table.read_text()

    def test_observed_order_of_a_race_is_not_a_difference(self):
        code, out, table = self.compare([result("p", 66, race("RAW"))], [result("p", 66, race("WAR"))])
        self.assertEqual(code, 0, out)
        self.assertIn("0 differ", table)

    def test_a_lost_race_a_new_class_or_another_exit_status_differ(self):
        baseline = [result("lost", 66, race("WAW")), result("class", 66, race("WAW")), result("exit", 0)]
        candidate = [result("lost", 0), result("class", 66, race("WAW", cls="inter-warp")), result("exit", 67)]
        code, out, table = self.compare(baseline, candidate)
        self.assertEqual(code, 1)
        self.assertIn("3 differ", out)
        for program in ("lost", "class", "exit"):
            self.assertIn(f"| {program} |", table)


if __name__ == "__main__":
    unittest.main()

"""Runs run_suite.run_program against stand-in tools (shell scripts playing the program,
compute-sanitizer and barracuda), then checks the results table and the --resume round trip."""
import argparse
import json
import tempfile
import textwrap
import unittest
from pathlib import Path

import run_suite
from suitelib.expectations import parse_program
from suitelib.results import ProgramResult, write_markdown

PROGRAM = "x[0] = 1;  // @A\nx[0] = 2;  // @B\n// EXPECT: race inter-block global WAW A B\n"


def script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return str(path)


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        (self.dir / "g").mkdir()
        (self.dir / "g" / "p.cu").write_text(PROGRAM)
        self.expected = parse_program(self.dir / "g" / "p.cu", self.dir).verdict("independent")
        self.exe = Path(script(self.dir / "prog", "echo p: 2\n"))
        self.sanitizer = script(self.dir / "sanitizer", """\
            echo '========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)'
            """)
        # Stand-in barracuda: writes a report naming lines 1 and 2 of p.cu to the --report path.
        self.barracuda = script(self.dir / "barracuda", """\
            report="$3"
            echo '{"races": [{"class": "inter-block", "space": "global", "hazard": "write-write",
                  "current": {"site": {"file": "g/p.cu", "line": 2}},
                  "previous": {"site": {"file": "g/p.cu", "line": 1}}}], "diagnostics": []}' > "$report"
            """)

    def tearDown(self):
        self.tmp.cleanup()

    def args(self, **extra):
        values = dict(timeout=10, barracuda=self.barracuda, barracuda_arg=[], logs=self.dir / "logs", traces=None)
        values.update(extra)
        return argparse.Namespace(**values)

    def test_runs_every_tool_and_compares(self):
        result = run_suite.run_program("g/p", self.expected, self.exe, self.sanitizer, self.args())
        self.assertEqual(result.native.status, 0)
        self.assertEqual(result.racecheck_findings, [])
        self.assertTrue(result.barracuda_agreement.detail)
        self.assertIn("p: 2", (self.dir / "logs" / "g.p.native.log").read_text())

        table = self.dir / "RESULTS.md"
        write_markdown(table, [result], "test device", "run_suite.py", "independent")
        text = table.read_text()
        self.assertIn("| verdict agreement | 0.0% (0/1) | 100.0% (1/1) |", text)
        self.assertIn("| racy programs flagged | 0.0% (0/1) | 100.0% (1/1) |", text)
        self.assertIn("| full agreement (class, space, hazard, both lines) | n/a | 100.0% (1/1) |", text)
        self.assertIn("| false alarms on race-free programs | 0 | 0 |", text)

        restored = ProgramResult.from_json(json.loads(json.dumps(result.as_json())), self.expected)
        self.assertEqual(restored.barracuda_findings, result.barracuda_findings)
        self.assertTrue(restored.barracuda_agreement.detail)
        self.assertEqual(restored.native.status, 0)

    def test_traces_are_recorded_per_program(self):
        recorder = script(self.dir / "recorder", """\
            report="$3"; trace="$5"
            echo "$4" > "$trace"
            echo '{"races": [], "diagnostics": []}' > "$report"
            """)
        run_suite.run_program("g/p", self.expected, self.exe, None,
                              self.args(barracuda=recorder, traces=self.dir / "traces"))
        self.assertEqual((self.dir / "traces" / "g.p.bctrace").read_text(), "--record\n")

    def test_a_run_that_died_of_a_signal_keeps_its_output(self):
        crashing = script(self.dir / "crashing", "echo 'frame libbarracuda.so(+0x1234)' >&2\nkill -SEGV $$\n")
        result = run_suite.run_program("g/p", self.expected, self.exe, None, self.args(barracuda=crashing))
        self.assertEqual(result.barracuda.status, -11)
        self.assertIn("libbarracuda.so(+0x1234)", result.as_json()["barracuda"]["output_tail"])
        self.assertNotIn("output_tail", result.as_json()["native"])

    def test_missing_report_and_hang(self):
        silent = script(self.dir / "silent", "exit 3\n")
        hang = script(self.dir / "hang", "sleep 5\n")
        result = run_suite.run_program("g/p", self.expected, Path(hang), None, self.args(barracuda=silent, timeout=0.5))
        self.assertIsNone(result.native.status)
        self.assertIsNone(result.barracuda_findings)
        self.assertIsNone(result.barracuda_agreement)


if __name__ == "__main__":
    unittest.main()

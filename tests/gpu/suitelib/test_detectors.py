"""Unit tests of the racecheck parser, the barracuda report adapter and the comparison."""
import tempfile
import unittest
from pathlib import Path

from suitelib.detectors import compare, findings_from_barracuda_report, findings_from_racecheck
from suitelib.expectations import parse_program

RACECHECK_RACE = """========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at exchange(int *)+0x90 in /src/shared/missing_barrier_raw.cu:9
=========     and Read access at exchange(int *)+0xc0 in /src/shared/missing_barrier_raw.cu:10 [64 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
"""
RACECHECK_CLEAN = ("========= COMPUTE-SANITIZER\nok: 1\n"
                   "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n")


class RacecheckTest(unittest.TestCase):
    def test_race_lines_and_hazard(self):
        (finding,) = findings_from_racecheck(RACECHECK_RACE)
        self.assertEqual(finding.lines, frozenset({("missing_barrier_raw.cu", 9), ("missing_barrier_raw.cu", 10)}))

        self.assertEqual((finding.space, finding.hazard), ("shared", "RAW"))

    def test_clean_and_unfinished_runs(self):
        self.assertEqual(findings_from_racecheck(RACECHECK_CLEAN), [])
        self.assertIsNone(findings_from_racecheck("========= Error: process didn't terminate successfully\n"))

    def test_summary_with_errors_but_no_parsable_pair_still_counts(self):
        summary = "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n"
        (finding,) = findings_from_racecheck(summary)
        self.assertEqual(finding.kind, "race")


class BarracudaReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        (root / "g").mkdir()
        (root / "g" / "p.cu").write_text("x = 1; // @A\ny = x; // @B\n// EXPECT: race inter-block global RAW A B\n")
        self.expected = parse_program(root / "g" / "p.cu", root).verdict("independent")

    def tearDown(self):
        self.tmp.cleanup()

    @staticmethod
    def report(race_class="inter-block", hazard="read-after-write", lines=(1, 2)):
        return {"races": [{"class": race_class, "space": "global", "hazard": hazard,
                           "current": {"site": {"file": "/abs/g/p.cu", "line": lines[1]}},
                           "previous": {"site": {"file": "/abs/g/p.cu", "line": lines[0]}}}],
                "diagnostics": []}

    def test_exact_match(self):
        agreement = compare(self.expected, findings_from_barracuda_report(self.report()))
        self.assertTrue(agreement.verdict and agreement.detail)

    def test_observed_war_accepted_for_expected_raw(self):
        self.assertTrue(compare(self.expected, findings_from_barracuda_report(self.report(hazard="write-after-read"))).detail)

    def test_wrong_class_or_lines_is_verdict_only(self):
        for report in (self.report(race_class="inter-warp"), self.report(lines=(1, 3)), self.report(hazard="write-write")):
            agreement = compare(self.expected, findings_from_barracuda_report(report))
            self.assertTrue(agreement.verdict)
            self.assertFalse(agreement.detail)

    def test_missed_race_and_extra_race(self):
        self.assertFalse(compare(self.expected, findings_from_barracuda_report({"races": []})).verdict)
        doubled = self.report()
        doubled["races"].append(dict(doubled["races"][0], space="shared"))
        agreement = compare(self.expected, findings_from_barracuda_report(doubled))
        self.assertTrue(agreement.verdict)
        self.assertFalse(agreement.detail)

    def test_same_value_write_write_is_a_warning_not_a_race(self):
        report = self.report()
        report["races"][0]["same_value"] = True
        self.assertEqual(findings_from_barracuda_report(report), [])

    def test_unfenced_acquire_is_a_warning_not_a_race(self):
        report = self.report()
        report["races"][0]["unfenced_acquire"] = {"flag": {"file": "/abs/g/p.cu", "line": 3},
                                                  "missing_fence": "__threadfence() after the spin on the flag"}
        self.assertEqual(findings_from_barracuda_report(report), [])

    def test_barrier_divergence_and_redundant_barrier_diagnostics(self):
        report = {"races": [], "diagnostics": [
            {"kind": "barrier-divergence", "site": {"file": "/abs/g/p.cu", "line": 7}},
            {"kind": "redundant-barrier", "site": {"file": "/abs/g/p.cu", "line": 9}}]}
        findings = findings_from_barracuda_report(report)
        self.assertEqual([f.kind for f in findings], ["barrier-divergence"])
        self.assertEqual(findings[0].lines, frozenset({("p.cu", 7)}))


if __name__ == "__main__":
    unittest.main()

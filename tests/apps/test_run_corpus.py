#!/usr/bin/env python3
"""CPU checks of run_corpus.py: the expectation headers of every corpus program parse, and the verdict
rules accept and reject the reports they should. No GPU, no barracuda binary."""
import glob
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_corpus import ExpectationError, judge, parse_expectation  # noqa: E402


def access(file, line):
    return {"site": {"file": "/src/" + file, "line": line}}


def report(races=(), warnings=0, divergences=0, skipped=()):
    return {"summary": {"unique_races": len(races), "barrier_divergences": divergences, "warnings": warnings,
                        "kernels_skipped": [{"kernel": k, "reason": r} for k, r in skipped]},
            "races": [{"current": access(*a), "previous": access(*b)} for a, b in races]}


CLEAN = {"verdict": "clean", "race_lines": [], "unchecked": None}
RACY = {"verdict": "racy", "race_lines": ["app.cu:12"], "unchecked": None}


class ParseExpectation(unittest.TestCase):
    def test_clean(self):
        self.assertEqual(parse_expectation("// What it is.\n// APP-EXPECT: clean\nint main() {}\n", "a.cu"), CLEAN)

    def test_racy_marker_gives_the_line(self):
        text = "// APP-EXPECT: racy\n\n  x[i] = y;  // APP-RACE\n"
        self.assertEqual(parse_expectation(text, "b.cu")["race_lines"], ["b.cu:3"])

    def test_unchecked(self):
        text = "// APP-EXPECT: clean\n// APP-UNCHECKED: no PTX for sm_90\n"
        self.assertEqual(parse_expectation(text, "c.cu")["unchecked"], "no PTX for sm_90")

    def test_rejected(self):
        for text in ("int main() {}\n", "// APP-EXPECT: maybe\n", "// APP-EXPECT: clean\n// APP-EXPECT: racy\n",
                     "// APP-EXPECT: racy\n", "// APP-EXPECT: clean\nx = 1;  // APP-RACE\n",
                     "// APP-EXPECT: clean\n// APP-UNCHECKED: a\n// APP-UNCHECKED: b\n"):
            with self.subTest(text=text), self.assertRaises(ExpectationError):
                parse_expectation(text, "d.cu")

    def test_every_corpus_program_states_its_expectation(self):
        sources = sorted(glob.glob(os.path.join(HERE, "*.cu")))
        self.assertGreaterEqual(len(sources), 10)
        verdicts = []
        for source in sources:
            with open(source) as f:
                verdicts.append(parse_expectation(f.read(), os.path.basename(source))["verdict"])
        self.assertIn("racy", verdicts)
        self.assertIn("clean", verdicts)


class Judge(unittest.TestCase):
    def test_clean_program_clean_report(self):
        self.assertEqual(judge(CLEAN, report(), 0), ("clean (0 races)", []))

    def test_clean_program_with_a_race_or_warning(self):
        verdict, problems = judge(CLEAN, report(races=[(("app.cu", 3), ("app.cu", 4))]), 66)
        self.assertTrue(verdict.startswith("racy"))
        self.assertTrue(any("1 races" in p for p in problems))
        self.assertTrue(judge(CLEAN, report(warnings=2), 0)[1])
        self.assertTrue(judge(CLEAN, report(divergences=1), 66)[1])

    def test_unchecked_code_needs_an_allowed_reason(self):
        skipped = [("module 3", "no PTX for sm_90 in the module (cubin only)")]
        self.assertTrue(judge(CLEAN, report(skipped=skipped), 67)[1])
        allowed = dict(CLEAN, unchecked="no PTX for sm_90")
        self.assertEqual(judge(allowed, report(skipped=skipped), 67)[1], [])
        self.assertTrue(judge(allowed, report(skipped=skipped), 0)[1])  # 67 expected when something went unchecked
        self.assertEqual(judge(allowed, report(), 0)[1], [])

    def test_racy_program_needs_its_line(self):
        self.assertEqual(judge(RACY, report(races=[(("app.cu", 40), ("app.cu", 12))]), 66)[1], [])
        problems = judge(RACY, report(races=[(("app.cu", 40), ("app.cu", 41))]), 66)[1]
        self.assertTrue(any("app.cu:12" in p for p in problems))
        self.assertTrue(judge(RACY, report(), 0)[1])
        self.assertTrue(judge(RACY, report(races=[(("app.cu", 12), ("app.cu", 12))]), 0)[1])

    def test_inlined_frames_count(self):
        racy = report(races=[(("app.cu", 40), ("app.cu", 41))])
        racy["races"][0]["current"]["site"]["inlined_at"] = [{"function": "f", "file": "/src/app.cu", "line": 12}]
        self.assertEqual(judge(RACY, racy, 66)[1], [])

    def test_missing_report(self):
        self.assertEqual(judge(CLEAN, None, 1), ("no report", ["no JSON report was written"]))


if __name__ == "__main__":
    unittest.main()

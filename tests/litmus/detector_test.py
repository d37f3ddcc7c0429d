#!/usr/bin/env python3
"""litmus/detector.py against a stand-in for `barracuda run` that writes chosen reports: verdicts, race
classes, agreement with barracuda-litmus --list-cells, harness races, and the engine-bug list.

    detector_test.py DETECTOR_PY BARRACUDA_LITMUS
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

DETECTOR, LITMUS = sys.argv[1], sys.argv[2]

# The stand-in's behaviour per cell: the races as (class, address); the cell's x is at 0x7f0000000000,
# y at 0x7f0000000080.
FAKE_BARRACUDA = textwrap.dedent("""\
    #!/usr/bin/env python3
    import json, sys
    args = sys.argv[1:]
    report, cell = args[args.index("--report") + 1], args[-1]
    races = {
        "MP:no-fence:intra-block": [("inter-warp", "0x7f0000000000")],
        "MP:membar.cta:inter-block": [("scoped", "0x7f0000000000"), ("inter-block", "0x7f0000000082")],
        "MP:membar.gl:inter-block": [("inter-block", "0x7f0000000000")],
        "SB:weak:inter-block": [("inter-block", "0x7f0000000000"), ("inter-block", "0x7f0000000004")],
    }.get(cell, [])
    if cell == "SB:release-acquire.cta:inter-block" and report.endswith(".1.json"):
        races = [("scoped", "0x7f0000000080")]  # only the second run sees it
    if cell == "LB:weak:intra-warp":
        sys.exit(2)  # the app failed and wrote no report
    if cell != "LB:no-fence:intra-warp":
        print("locations: x=0x7f0000000000 y=0x7f0000000080")
    if cell == "MP:membar.gl:inter-block":
        print("note: the reader never saw the flag")
    doc = {"summary": {"analysis_incomplete": cell == "SB:no-fence:intra-warp", "dropped_events": 0,
                       "kernels_skipped": []},
           "races": [{"class": c, "address": a} for c, a in races],
           "diagnostics": []}
    with open(report, "w") as f:
        json.dump(doc, f)
    sys.exit(66 if races else 0)
""")

TABLE = textwrap.dedent("""\
    | test | variant | placement | PTX model | iterations | weak (no stress) | weak (stress) |
    | --- | --- | --- | --- | ---: | ---: | ---: |
    | MP | no-fence | intra-block | allowed | 100 | 0 | 0 |
    | MP | no-fence | inter-block | allowed | 100 | 7 | 0 |
    | MP | membar.cta | inter-block | allowed | 100 | 3 | 0 |
    | MP | membar.gl | inter-block | forbidden | 100 | 0 | 0 |
    | SB | weak | inter-block | allowed | 100 | 5 | 1 |
    | SB | no-fence | intra-warp | allowed | 100 | 0 | 0 |
    | SB | atomic-relaxed | inter-block | allowed | 100 | 9 | 2 |
    | LB | weak | intra-warp | allowed | 100 | 0 | 0 |
    | LB | no-fence | intra-warp | allowed | 100 | 0 | 0 |
    | SB | release-acquire.cta | inter-block | allowed | 100 | 4 | 0 |
""")


class DetectorDriver(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="litmus-detector-test-")
        fake = os.path.join(cls.dir, "barracuda")
        with open(fake, "w") as f:
            f.write(FAKE_BARRACUDA)
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
        table = os.path.join(cls.dir, "hardware.md")
        with open(table, "w") as f:
            f.write(TABLE)
        cls.out = os.path.join(cls.dir, "merged.md")
        cls.result = subprocess.run([sys.executable, DETECTOR, "--litmus", LITMUS, "--barracuda", fake, "--table", table,
                                  "--out", cls.out, "--jobs", "3", "--repeat", "2", "--work", os.path.join(cls.dir, "work")],
                                 capture_output=True, text=True)
        with open(cls.out) as f:
            cls.text = f.read()
        cls.rows = {}
        for line in cls.text.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if line.startswith("|") and len(cells) == 10:
                cls.rows[":".join(cells[:3])] = cells[7:]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_disagreements_fail_the_run(self):
        self.assertEqual(self.result.returncode, 1, self.result.stderr)

    def test_header_gains_the_detector_columns(self):
        self.assertEqual(self.rows["test:variant:placement"], ["detector expected", "barracuda", "agrees"])
        self.assertIn("| ---: | ---: | --- | --- | --- |", self.text)

    def test_expected_race_reported_agrees(self):
        self.assertEqual(self.rows["MP:no-fence:intra-block"], ["race", "race (inter-warp on x)", "yes"])
        self.assertEqual(self.rows["MP:membar.cta:inter-block"],
                         ["race", "race (inter-block on y, scoped on x)", "yes"])

    def test_missed_race_with_weak_hardware_outcome_is_an_engine_bug(self):
        self.assertEqual(self.rows["MP:no-fence:inter-block"], ["race", "no race", "**NO**"])
        # A race the engine missed in one run of two counts too.
        self.assertIn("engine called synchronised what the hardware showed weak: MP:no-fence:inter-block, "
                      "SB:release-acquire.cta:inter-block\n", self.text)

    def test_false_alarm_disagrees(self):
        self.assertEqual(self.rows["MP:membar.gl:inter-block"],
                         ["no race", "race (inter-block on x, the reader never saw the flag)", "**NO**"])

    def test_weak_outcome_of_strong_accesses_is_no_race(self):
        self.assertEqual(self.rows["SB:atomic-relaxed:inter-block"], ["no race", "no race", "yes"])

    def test_races_off_the_locations_failures_and_incomplete_runs_are_errors(self):
        self.assertEqual(self.rows["SB:weak:inter-block"][1], "error (1 race(s) off the cell's locations)")
        self.assertEqual(self.rows["SB:no-fence:intra-warp"][1], "error (analysis incomplete)")
        self.assertEqual(self.rows["LB:weak:intra-warp"][1], "error (exit 2)")
        self.assertEqual(self.rows["LB:no-fence:intra-warp"][1], "error (the cell did not print its locations)")

    def test_a_race_in_some_runs_only_is_a_race_and_says_so(self):
        self.assertEqual(self.rows["SB:release-acquire.cta:inter-block"],
                         ["race", "race (scoped on y; in 1 of 2 runs)", "**NO**"])

    def test_runs_past_the_budget_are_not_run(self):
        table = os.path.join(self.dir, "hardware.md")
        out = os.path.join(self.dir, "no-budget.md")
        subprocess.run([sys.executable, DETECTOR, "--litmus", LITMUS, "--barracuda", os.path.join(self.dir, "barracuda"),
                        "--table", table, "--out", out, "--budget", "0", "--work", os.path.join(self.dir, "work0")],
                       capture_output=True, text=True)
        with open(out) as f:
            self.assertEqual(f.read().count("error (not run: --budget spent)"), 10)

    def test_summary_counts_agreeing_cells(self):
        self.assertIn("detector: 3 of 10 cells agree with the model; disagreements: ", self.text)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])

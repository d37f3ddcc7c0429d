#!/usr/bin/env python3
"""Tests of run_bench.py without a GPU: stand-in workloads and tools are small scripts that print what
the real ones print, so the whole harness runs end to end (timeouts, wrong results, reports, table)."""
import json
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_bench  # noqa: E402

WORKLOAD = """\
#!{python}
import sys, time
time.sleep({sleep})
print("RESULT {name} {verdict} {gpu_ms}")
sys.exit(0 if "{verdict}" == "ok" else 1)
"""

# Stand-in for compute-sanitizer: slows the app down, takes forever on workloads named *slow*.
RACECHECK = """\
#!{python}
import subprocess, sys, time
app = sys.argv[3:]
time.sleep(60 if "slow" in app[0] else 0.3)
code = subprocess.call(app)
print("========= ERROR SUMMARY: 0 errors")
sys.exit(code)
"""

# Stand-in for barracuda: `run --report F -- app...`; writes a report and exits 66 (races found).
BARRACUDA = """\
#!{python}
import json, subprocess, sys
assert sys.argv[1:3] == ["run", "--report"] and sys.argv[4] == "--"
subprocess.call(sys.argv[5:])
with open(sys.argv[3], "w") as f:
    json.dump({{"schema_version": 1, "summary": {{"events": 1000, "bytes_per_event": 24}}, "races": [{{}}]}}, f)
sys.exit(66)
"""


def write_script(path, text, **fields):
    path.write_text(textwrap.dedent(text).format(python=sys.executable, **fields))
    path.chmod(0o755)


class HarnessEndToEnd(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        root = Path(self.dir.name)
        self.bin = root / "bin"
        self.out = root / "results"
        self.bin.mkdir()
        for name, verdict, sleep in (("fast", "ok", 0.05), ("slowtool", "ok", 0.05), ("wrong", "FAIL", 0)):
            write_script(self.bin / f"gpubench-{name}", WORKLOAD, name=name, verdict=verdict, sleep=sleep,
                         gpu_ms=12.5)
        write_script(root / "compute-sanitizer", RACECHECK)
        write_script(root / "barracuda", BARRACUDA)
        self.common = ["--bin-dir", str(self.bin), "--out-dir", str(self.out), "--device", "Test GPU 9000",
                       "--racecheck", str(root / "compute-sanitizer"), "--racecheck-timeout", "3",
                       "--barracuda", str(root / "barracuda"), "--repetitions", "2", "--no-plot"]

    def tearDown(self):
        self.dir.cleanup()

    def run_harness(self, *extra):
        code = run_bench.main([*self.common, *extra])
        files = list(self.out.glob("*-test-gpu-9000.json"))
        self.assertEqual(len(files), 1)
        return code, json.loads(files[0].read_text())

    def test_measures_slowdowns_timeouts_and_reports(self):
        code, doc = self.run_harness("--workloads", "fast", "slowtool")
        self.assertEqual(code, 0)
        self.assertEqual(doc["schema"], run_bench.SCHEMA)
        self.assertEqual(doc["tools"], ["native", "racecheck", "barracuda"])
        fast = doc["results"]["fast"]
        self.assertEqual(fast["native"]["status"], "ok")
        self.assertEqual(len(fast["native"]["runs"]), 2)
        self.assertEqual(fast["native"]["gpu_ms"], 12.5)
        self.assertGreater(fast["native"]["runs"][0]["maxrss_kib"], 0)
        self.assertEqual(fast["racecheck"]["runs"][0]["sanitizer_errors"], 0)
        self.assertFalse(fast["racecheck"]["race_reports"])
        self.assertTrue(fast["barracuda"]["race_reports"])  # the stand-in exits 66 and lists a race
        self.assertFalse(fast["native"]["race_reports"])
        self.assertEqual(fast["barracuda"]["runs"][0]["exit_code"], 66)
        self.assertEqual(fast["barracuda"]["runs"][0]["report"],
                         {"schema_version": 1, "events": 1000, "bytes_per_event": 24, "races": 1})

        racecheck = doc["summary"]["racecheck"]
        self.assertGreater(racecheck["per_workload"]["fast"]["wall"], 1.0)  # the stand-in sleeps 0.3 s
        self.assertAlmostEqual(racecheck["per_workload"]["fast"]["gpu"], 1.0)
        slow = doc["results"]["slowtool"]["racecheck"]
        self.assertEqual(slow["status"], "timeout")
        self.assertEqual(len(slow["runs"]), 1)  # not repeated after a timeout
        self.assertLess(slow["runs"][0]["wall_s"], 10)  # killed, not waited for
        self.assertGreater(racecheck["per_workload"]["slowtool"]["wall_at_least"], 1.0)
        self.assertEqual((racecheck["measured"], racecheck["timeouts"]), (1, 1))
        self.assertIn("fast", doc["summary"]["barracuda_over_racecheck"])
        self.assertNotIn("slowtool", doc["summary"]["barracuda_over_racecheck"])

    def test_tool_budget_limits_tool_repetitions_only(self):
        code, doc = self.run_harness("--workloads", "fast", "--tool-budget", "0.5")
        self.assertEqual(code, 0)
        fast = doc["results"]["fast"]
        self.assertEqual(len(fast["native"]["runs"]), 2)
        self.assertEqual(len(fast["racecheck"]["runs"]), 1)  # each stand-in run takes > 0.5 s
        self.assertEqual(fast["racecheck"]["status"], "ok")

    def test_table_shows_wall_and_gpu_slowdowns_and_timeouts(self):
        results = {"a": {"native": {"status": "ok", "wall_s": 2.0, "gpu_ms": 100.0},
                         "racecheck": {"status": "ok", "wall_s": 8.0, "gpu_ms": 1000.0}},
                   "b": {"native": {"status": "ok", "wall_s": 2.0, "gpu_ms": 100.0},
                         "racecheck": {"status": "timeout", "wall_s_at_least": 20}}}
        tools = ["native", "racecheck"]
        table = run_bench.markdown_table(results, run_bench.summarise(results, tools), tools).splitlines()
        self.assertEqual(table[2], "| a | 2.00 | 100.0 | 4.0x (GPU 10.0x) |")
        self.assertEqual(table[3], "| b | 2.00 | 100.0 | >10x (timeout) |")
        self.assertEqual(table[4], "| **geometric mean** |  |  | **4.0x** (GPU 10.0x; 1 measured) |")

    def test_wrong_native_result_fails_the_run_and_skips_tools(self):
        code, doc = self.run_harness("--workloads", "wrong", "--no-racecheck")
        self.assertEqual(code, 1)
        wrong = doc["results"]["wrong"]
        self.assertEqual(wrong["native"]["status"], "FAIL")
        self.assertEqual(list(wrong), ["native"])


class Pieces(unittest.TestCase):
    def test_parse_run_needs_the_workloads_own_result_line(self):
        raw = {"wall_s": 1.0, "exit_code": 0, "maxrss_kib": 5, "timed_out": False,
               "output": "noise\nRESULT other ok 3.0\nRESULT mine ok 7.25\n"}
        self.assertEqual(run_bench.parse_run("mine", raw)["gpu_ms"], 7.25)
        self.assertEqual(run_bench.parse_run("absent", raw)["status"], "error")
        self.assertEqual(run_bench.parse_run("mine", {**raw, "timed_out": True})["status"], "timeout")
        skipped = {**raw, "output": "SKIP mine: no CUDA device", "exit_code": 77}
        self.assertEqual(run_bench.parse_run("mine", skipped)["status"], "skipped")

    def test_report_adapter_tolerates_any_input(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "r.json"
            self.assertEqual(run_bench.barracuda_report_fields(path), {})
            path.write_text("not json")
            self.assertEqual(run_bench.barracuda_report_fields(path), {})
            path.write_text("[1, 2]")
            self.assertEqual(run_bench.barracuda_report_fields(path), {})
            path.write_text(json.dumps({"events": 5, "statistics": {"events": 9, "dropped_events": 0}}))
            self.assertEqual(run_bench.barracuda_report_fields(path), {"events": 5, "dropped_events": 0})

    def test_geometric_mean(self):
        self.assertAlmostEqual(run_bench.geometric_mean([2.0, 8.0]), 4.0)
        self.assertIsNone(run_bench.geometric_mean([]))


if __name__ == "__main__":
    unittest.main()

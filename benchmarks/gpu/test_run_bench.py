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

# Stand-in for barracuda: `run --report F --cache-dir D -- app...`; logs its cache dir next to itself,
# "compiles" (1 s, or forever for apps named *slowjit*) unless D holds a cubin, writes a report with
# statistics and exits 66 (races found).
BARRACUDA = """\
#!{python}
import json, pathlib, subprocess, sys, time
assert sys.argv[1:3] == ["run", "--report"] and sys.argv[4] == "--cache-dir" and sys.argv[6] == "--"
cache = pathlib.Path(sys.argv[5])
with open(pathlib.Path(sys.argv[0]).parent / "barracuda.log", "a") as log:
    log.write(sys.argv[7] + " " + str(cache) + "\\n")
cubin = cache / "module.cubin"
hit = cubin.exists()
if not hit:
    time.sleep(60 if "slowjit" in sys.argv[7] else 1.0)
    cache.mkdir(parents=True, exist_ok=True)
    cubin.write_text("ELF")
subprocess.call(sys.argv[7:])
statistics = {{"events": 1000, "bytes_per_event": 24.0, "queue_bytes": 3 * 2 ** 20, "engine_seconds": 0.25,
              "drain_events_per_second": 2.5e6, "jit_seconds": 0.0 if hit else 1.0, "cache_hits": int(hit),
              "cache_misses": int(not hit), "cache_load_seconds": 0.01 if hit else 0.0}}
with open(sys.argv[3], "w") as f:
    json.dump({{"schema_version": 1, "summary": {{"events": 1000}}, "races": [{{}}], "statistics": statistics}}, f)
sys.exit(66)
"""


def write_script(path, text, **fields):
    path.write_text(textwrap.dedent(text).format(python=sys.executable, **fields))
    path.chmod(0o755)


class HarnessEndToEnd(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        root = self.root = Path(self.dir.name)
        self.bin = root / "bin"
        self.out = root / "results"
        self.bin.mkdir()
        for name, verdict, sleep in (("fast", "ok", 0.05), ("slowtool", "ok", 0.05), ("wrong", "FAIL", 0),
                                     ("slowjit", "ok", 0)):
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
                         {"schema_version": 1, "events": 1000, "bytes_per_event": 24.0, "queue_bytes": 3 * 2 ** 20,
                          "engine_seconds": 0.25, "drain_events_per_second": 2.5e6, "jit_seconds": 1.0,
                          "cache_hits": 0, "cache_misses": 1, "cache_load_seconds": 0.0, "races": 1})

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

    def test_barracuda_warms_its_own_cache_before_the_timed_runs(self):
        code, doc = self.run_harness("--workloads", "fast", "slowtool", "--no-racecheck", "--warm-up")
        self.assertEqual(code, 0)
        barracuda = doc["results"]["fast"]["barracuda"]
        self.assertEqual(len(barracuda["runs"]), 2)  # the warm-up is not one of the timed runs
        self.assertEqual(barracuda["jit"]["status"], "ok")
        self.assertEqual(barracuda["jit"]["report"]["jit_seconds"], 1.0)
        self.assertEqual(barracuda["jit"]["report"]["cache_misses"], 1)
        self.assertGreaterEqual(barracuda["jit"]["wall_s"], 1.0)
        for run in barracuda["runs"]:
            self.assertEqual((run["report"]["cache_hits"], run["report"]["jit_seconds"]), (1, 0.0))
            self.assertLess(run["wall_s"], barracuda["jit"]["wall_s"])
        self.assertEqual(barracuda["statistics"]["events"], 1000)
        self.assertEqual(barracuda["statistics"]["cache_load_seconds"], 0.01)
        # Three runs per workload, all with one cache of the workload's own in the harness's scratch dir.
        log = [line.split(" ", 1) for line in (self.root / "barracuda.log").read_text().splitlines()]
        self.assertEqual([Path(app).name for app, _ in log], ["gpubench-fast"] * 3 + ["gpubench-slowtool"] * 3)
        caches = [cache for _, cache in log]
        self.assertEqual(len(set(caches[:3])), 1)
        self.assertEqual(len(set(caches[3:])), 1)
        self.assertNotEqual(caches[0], caches[3])
        self.assertTrue(Path(caches[0]).name.startswith("fast"))
        self.assertFalse(Path(caches[0]).exists())  # removed with the scratch dir

    def test_without_warm_up_the_first_timed_run_compiles(self):
        code, doc = self.run_harness("--workloads", "fast", "--no-racecheck")
        self.assertEqual(code, 0)
        barracuda = doc["results"]["fast"]["barracuda"]
        self.assertNotIn("jit", barracuda)
        self.assertEqual([run["report"]["cache_misses"] for run in barracuda["runs"]], [1, 0])
        self.assertEqual(barracuda["statistics"]["jit_seconds"], 0.5)  # median of 1.0 and 0.0
        log = (self.root / "barracuda.log").read_text().splitlines()
        self.assertEqual(len(log), 2)  # no untimed run
        table = run_bench.overhead_table(doc["results"]).splitlines()
        self.assertEqual(table[2].split(" | ")[5], "0.50")  # the JIT column falls back to the timed runs

    def test_parts_merge_into_one_document(self):
        self.assertEqual(self.run_harness("--workloads", "fast")[0], 0)
        first = next(self.out.glob("*.json"))
        part1 = self.root / "part1.json"
        first.rename(part1)
        self.assertEqual(self.run_harness("--workloads", "slowtool")[0], 0)
        part2 = next(self.out.glob("*.json"))
        merged_dir = self.root / "merged"
        self.assertEqual(run_bench.main(["--merge", str(part1), str(part2), "--out-dir", str(merged_dir)]), 0)
        doc = json.loads((merged_dir / "part1.json").read_text())
        self.assertEqual(sorted(doc["results"]), ["fast", "slowtool"])
        racecheck = doc["summary"]["racecheck"]
        self.assertEqual((racecheck["measured"], racecheck["timeouts"]), (1, 1))  # recomputed over both parts
        self.assertIn(" + ", doc["command"])
        self.assertEqual(run_bench.main(["--merge", str(part1)]), 2)  # no --out-dir

    def test_failed_warm_up_is_the_only_run(self):
        code, doc = self.run_harness("--workloads", "slowjit", "--no-racecheck", "--barracuda-timeout", "1.5",
                                     "--tool-budget", "0", "--warm-up")
        self.assertEqual(code, 0)
        barracuda = doc["results"]["slowjit"]["barracuda"]
        self.assertEqual(barracuda["status"], "timeout")
        self.assertEqual(barracuda["runs"], [barracuda["jit"]])
        self.assertLess(barracuda["jit"]["wall_s"], 10)  # the warm-up has the barracuda timeout
        self.assertGreater(doc["summary"]["barracuda"]["per_workload"]["slowjit"]["wall_at_least"], 1.0)

    def test_tool_budget_limits_tool_repetitions_only(self):
        code, doc = self.run_harness("--workloads", "fast", "--tool-budget", "0.8", "--warm-up")
        self.assertEqual(code, 0)
        fast = doc["results"]["fast"]
        self.assertEqual(len(fast["native"]["runs"]), 2)
        self.assertEqual(len(fast["racecheck"]["runs"]), 1)  # each stand-in run takes > 0.4 s
        self.assertEqual(fast["racecheck"]["status"], "ok")
        # The warm-up (> 1 s of "JIT") is not charged to the budget: both cached runs fit.
        self.assertEqual(len(fast["barracuda"]["runs"]), 2)

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

    def test_against_racecheck_bounds_its_timeouts_and_names_workloads_over_three_times(self):
        native = {"status": "ok", "wall_s": 1.0, "gpu_ms": 1.0}
        ok = lambda wall: {"status": "ok", "wall_s": wall, "gpu_ms": wall}
        timeout = lambda wall: {"status": "timeout", "wall_s_at_least": wall}
        results = {"fast": {"native": native, "racecheck": ok(10.0), "barracuda": ok(2.0)},
                   "bounded": {"native": native, "racecheck": timeout(20.0), "barracuda": ok(5.0)},
                   "slow": {"native": native, "racecheck": ok(2.0), "barracuda": ok(8.0)},
                   "lock": {"native": native, "racecheck": ok(2.0), "barracuda": timeout(30.0)},
                   "both_time_out": {"native": native, "racecheck": timeout(20.0), "barracuda": timeout(30.0)}}
        tools = ["native", "racecheck", "barracuda"]
        summary = run_bench.summarise(results, tools)
        against = summary["against_racecheck"]
        self.assertEqual(against["workloads"], ["fast", "bounded", "slow"])
        self.assertAlmostEqual(against["barracuda_geomean_wall"], (2.0 * 5.0 * 8.0) ** (1 / 3))
        self.assertAlmostEqual(against["racecheck_geomean_wall"], (10.0 * 20.0 * 2.0) ** (1 / 3))
        self.assertTrue(against["racecheck_geomean_is_lower_bound"])
        self.assertEqual(against["over_bound"], ["lock", "slow"])
        table = run_bench.markdown_table(results, summary, tools).splitlines()
        self.assertEqual(table[-1], "Over the 3 workloads barracuda finishes: barracuda 4.3x, racecheck at least "
                                    "7.4x; over 3x racecheck's time where racecheck finishes: lock, slow.")

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

    def test_overhead_table_shows_median_statistics_and_warm_up_jit(self):
        results = {"a": {"native": {"status": "ok"},
                         "barracuda": {"status": "ok", "maxrss_kib": 2048, "jit": {"report": {"jit_seconds": 3.5}},
                                       "statistics": {"events": 2.5e6, "bytes_per_event": 40.0,
                                                      "drain_events_per_second": 1.5e7, "engine_seconds": 1.25,
                                                      "cache_load_seconds": 0.125, "queue_bytes": 132 * 2 ** 20}}},
                   "b": {"native": {"status": "ok"},
                         "barracuda": {"status": "timeout", "jit": {"status": "timeout", "report": {}}}},
                   "c": {"native": {"status": "FAIL"}}}
        table = run_bench.overhead_table(results).splitlines()
        self.assertEqual(len(table), 4)
        self.assertEqual(table[2], "| a | 2500000 | 40.0 | 15.0 | 1.25 | 3.50 | 0.12 | 132.0 | 2 |")
        self.assertEqual(table[3], "| b | - | - | - | - | - | - | - | - |")

    def test_median_statistics_skip_non_figures(self):
        runs = [{"report": {"events": 1, "engine_seconds": 3.0, "flag": True, "schema_version": 1}},
                {"report": {"events": 3}},
                {"report": {"events": 2, "engine_seconds": 1.0}}, {}]
        self.assertEqual(run_bench.median_statistics(runs), {"events": 2, "engine_seconds": 2.0})

    def test_geometric_mean(self):
        self.assertAlmostEqual(run_bench.geometric_mean([2.0, 8.0]), 4.0)
        self.assertIsNone(run_bench.geometric_mean([]))


if __name__ == "__main__":
    unittest.main()

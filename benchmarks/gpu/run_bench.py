#!/usr/bin/env python3
"""Slowdown harness: runs every GPU workload natively, under compute-sanitizer racecheck and (with
--barracuda) under barracuda, on one machine in one go, and reports slowdowns.

For each workload and each way of running it: --repetitions runs (median taken), each with a per-run
timeout. A run records the wall time of the whole process, the workload's own GPU time (its
`RESULT <name> ok|FAIL <gpu_ms>` line), its exit code, the peak resident memory of the process tree
(wait4 rusage) and, for tools, what the tool reported. Slowdown = tool wall / native wall (medians).
Barracuda runs use a cubin cache of their own under the scratch directory. The first timed run fills
it (its report's jit_seconds says what compiling cost, the later runs' cache_load_seconds what loading
from the cache cost); with --warm-up, one untimed run per workload fills it first, so the timed runs
measure checking only (at the price of one more run of the slowest tool).

Writes <out-dir>/<date>-<device>.json, prints a markdown table and, where matplotlib is installed, saves
<date>-<device>.png. Exit status 1 when a workload failed natively or gave a different result under a
tool (the application's behaviour must not change), 2 on usage errors. Python 3 standard library only.
"""
import argparse
import datetime
import json
import math
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

SCHEMA = "barracuda-gpubench/2"  # 2: barracuda warm-up (`jit`) and report statistics
RESULT_LINE = re.compile(r"^RESULT (\S+) (ok|FAIL) ([0-9.]+)\s*$", re.MULTILINE)
SANITIZER_ERRORS = re.compile(r"ERROR SUMMARY: (\d+) error")
WORKLOAD_PREFIX = "gpubench-"
NO_GPU_EXIT_CODE = 77
BARRACUDA_RACES_EXIT_CODE = 66


def parse_args(argv):
    here = Path(__file__).resolve().parent
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin-dir", type=Path, default=here.parents[1] / "build" / "bin",
                   help="directory holding the gpubench-<name> executables (default: build/bin)")
    p.add_argument("--workloads", nargs="+", metavar="NAME", help="only these workloads (default: all)")
    p.add_argument("--repetitions", type=int, default=3, help="runs per workload and tool (median; default 3)")
    p.add_argument("--scale", type=float, default=1.0, help="passed to each workload as --scale (default 1)")
    p.add_argument("--native-timeout", type=float, default=60, help="seconds per native run (default 60)")
    default_racecheck = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    p.add_argument("--racecheck", default=default_racecheck,
                   help="compute-sanitizer executable (default: from PATH, else /usr/local/cuda/bin)")
    p.add_argument("--no-racecheck", action="store_true", help="skip the racecheck runs")
    p.add_argument("--racecheck-timeout", type=float, default=20, help="seconds per racecheck run (default 20)")
    p.add_argument("--barracuda", help="barracuda executable: also run `barracuda run -- app`")
    p.add_argument("--barracuda-timeout", type=float, default=60, help="seconds per barracuda run (default 60)")
    p.add_argument("--warm-up", action="store_true",
                   help="one untimed barracuda run per workload first, to fill its cubin cache")
    p.add_argument("--tool-budget", type=float, default=20,
                   help="seconds a tool may spend on one workload: no further repetition is started when it "
                        "would exceed this (at least one run; native runs are not limited; default 20)")
    p.add_argument("--device", help="device name for the results file (default: from nvidia-smi)")
    p.add_argument("--out-dir", type=Path, default=here.parent / "results", help="default: benchmarks/results")
    p.add_argument("--no-plot", action="store_true", help="do not draw the PNG even if matplotlib is present")
    args = p.parse_args(argv)
    if args.repetitions < 1 or args.scale <= 0:
        p.error("--repetitions must be >= 1 and --scale > 0")
    if args.barracuda and not shutil.which(args.barracuda):
        p.error(f"--barracuda {args.barracuda}: not an executable")
    if not args.no_racecheck and not shutil.which(args.racecheck):
        print(f"run_bench: {args.racecheck} not found, racecheck runs skipped (--racecheck PATH)",
              file=sys.stderr)
        args.no_racecheck = True
    return args


def discover_workloads(bin_dir, only):
    found = {path.name[len(WORKLOAD_PREFIX):]: path for path in sorted(bin_dir.glob(WORKLOAD_PREFIX + "*"))
             if os.access(path, os.X_OK)}
    if only:
        missing = [name for name in only if name not in found]
        if missing:
            raise SystemExit(f"run_bench: no executable for {', '.join(missing)} in {bin_dir}")
        return {name: found[name] for name in only}
    if not found:
        raise SystemExit(f"run_bench: no {WORKLOAD_PREFIX}* executables in {bin_dir} (build first)")
    return found


def device_name(override):
    if override:
        return override
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30, check=True).stdout
        return out.splitlines()[0].strip() or "unknown-gpu"
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown-gpu"


def run_once(command, timeout_s):
    """Runs command in its own process group; returns wall time, exit code, output and peak RSS (KiB)."""
    with tempfile.TemporaryFile() as output:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        timed_out = threading.Event()

        def kill_group():
            timed_out.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout_s, kill_group)
        timer.start()
        try:
            # wait4 rather than Popen.wait: it returns this child's own rusage (peak RSS of its process tree).
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:  # interrupted: take the whole process group down with the harness
            kill_group()
            raise
        wall = time.perf_counter() - start
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        text = output.read().decode(errors="replace")
    return {"wall_s": wall, "exit_code": proc.returncode, "timed_out": timed_out.is_set(),
            "maxrss_kib": usage.ru_maxrss, "output": text}


def parse_run(name, raw):
    """Turns a raw run into its record: status is ok, FAIL (wrong result), skipped (the workload found no
    GPU: exit 77), error (no RESULT line) or timeout."""
    run = {key: raw[key] for key in ("wall_s", "exit_code", "maxrss_kib")}
    match = next((m for m in RESULT_LINE.finditer(raw["output"]) if m.group(1) == name), None)
    if raw["timed_out"]:
        run["status"] = "timeout"
    elif match is None and raw["exit_code"] == NO_GPU_EXIT_CODE:
        run["status"] = "skipped"
    elif match is None:
        run["status"] = "error"
        run["output_tail"] = raw["output"][-2000:]
    else:
        run["status"] = match.group(2)
        run["gpu_ms"] = float(match.group(3))
    return run


# What the harness keeps of barracuda's JSON report (docs/report.md): the summary's counts and the
# `statistics` section's overhead figures.
REPORT_FIELDS = (
    "schema_version", "events", "dropped_events", "kernels_instrumented", "slots", "bytes_logged",
    "bytes_per_event", "queue_host_bytes", "queue_device_bytes", "queue_bytes", "drain_threads",
    "drain_wait_seconds", "drain_events_per_second", "engine_seconds", "engine_thread_accesses",
    "engine_thread_accesses_per_second", "engine_peak_resident_blocks", "modules_instrumented",
    "cache_misses", "jit_seconds", "cache_hits", "cache_load_seconds")


def barracuda_report_fields(report_path):
    """The one place that knows barracuda's JSON report: picks the overhead figures it offers, tolerating
    missing files, other schema versions and absent keys (reports of older barracudas lack statistics)."""
    try:
        report = json.loads(Path(report_path).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(report, dict):
        return {}
    sections = [report] + [report[k] for k in ("summary", "statistics") if isinstance(report.get(k), dict)]
    fields = {}
    for section in sections:
        for key in REPORT_FIELDS:
            if key in section and key not in fields:
                fields[key] = section[key]
    if isinstance(report.get("races"), list):
        fields["races"] = len(report["races"])
    return fields


def tool_commands(args):
    """Each way of running an application: a function from the app's argv, a report path and a cubin
    cache directory (used by the tools that write a report or cache) to the full command, and the
    per-run timeout."""
    tools = {"native": (lambda app, report, cache: app, args.native_timeout)}
    if not args.no_racecheck:
        tools["racecheck"] = (lambda app, report, cache: [args.racecheck, "--tool", "racecheck", *app],
                              args.racecheck_timeout)
    if args.barracuda:
        tools["barracuda"] = (lambda app, report, cache: [args.barracuda, "run", "--report", report,
                                                          "--cache-dir", cache, "--", *app],
                              args.barracuda_timeout)
    return tools


def reports_races(run):
    """Whether a tool run said it found a race or hazard: on these race-free workloads, a false alarm."""
    return bool(run.get("sanitizer_errors")) or run["exit_code"] == BARRACUDA_RACES_EXIT_CODE \
        or bool(run.get("report", {}).get("races"))


def run_tool(name, executable, tool, make_command, timeout_s, args, scratch, label):
    """One run of the workload under the tool; label names it in the scratch files and the progress line."""
    report = scratch / f"{name}-{tool}-{label.replace(' ', '')}.json"
    cache = scratch / f"{name}-cubin-cache"  # one per workload: its JIT figures do not depend on the order
    raw = run_once(make_command([str(executable), "--scale", str(args.scale)], str(report), str(cache)), timeout_s)
    run = parse_run(name, raw)
    if tool == "racecheck":
        errors = SANITIZER_ERRORS.search(raw["output"])
        run["sanitizer_errors"] = int(errors.group(1)) if errors else None
    if tool == "barracuda":
        run["report"] = barracuda_report_fields(report)
    print(f"  {name:18} {tool:9} {label:7}: {run['status']:7} {run['wall_s']:8.2f} s"
          + (f"  gpu {run['gpu_ms']:.1f} ms" if "gpu_ms" in run else ""), flush=True)
    return run


def median_statistics(runs):
    """Median over the runs of each figure their barracuda reports give (numbers; not the schema version)."""
    values = {}
    for run in runs:
        for key, value in run.get("report", {}).items():
            if key != "schema_version" and isinstance(value, (int, float)) and not isinstance(value, bool):
                values.setdefault(key, []).append(value)
    return {key: statistics.median(v) for key, v in values.items()}


def measure(name, executable, tool, make_command, timeout_s, args, scratch):
    warmup = None
    if tool == "barracuda" and args.warm_up:
        # Fills the workload's cubin cache; its own timeout, outside the tool budget. Failed, it is the
        # tool's only run: the timed runs would repeat its failure (or its unfinished JIT).
        warmup = run_tool(name, executable, tool, make_command, timeout_s, args, scratch, "warm-up")
    runs = [warmup] if warmup is not None and warmup["status"] != "ok" else []
    spent = 0.0
    # A timeout or failure would only repeat itself and spend the time budget.
    while len(runs) < args.repetitions and (not runs or runs[-1]["status"] == "ok"):
        if runs and tool != "native" and spent + runs[-1]["wall_s"] > args.tool_budget:
            break  # fewer repetitions rather than blowing the time of the whole harness
        run = run_tool(name, executable, tool, make_command, timeout_s, args, scratch, f"run {len(runs) + 1}")
        runs.append(run)
        spent += run["wall_s"]
    every_run = runs if warmup is None else [warmup, *runs]  # a false alarm in the warm-up counts too
    summary = {"runs": runs, "status": runs[-1]["status"], "race_reports": any(map(reports_races, every_run))}
    if warmup is not None:
        summary["jit"] = warmup  # wall time of an uncached run; its report's jit_seconds
    if summary["status"] == "ok":
        summary["wall_s"] = statistics.median(r["wall_s"] for r in runs)
        summary["gpu_ms"] = statistics.median(r["gpu_ms"] for r in runs)
        summary["maxrss_kib"] = max(r["maxrss_kib"] for r in runs)
        if tool == "barracuda":
            summary["statistics"] = median_statistics(runs)
    elif summary["status"] == "timeout":
        summary["wall_s_at_least"] = timeout_s
    return summary


def slowdowns(results, tool):
    """Per-workload slowdown of tool over native: a number, or a lower bound (">= x") after a timeout."""
    out = {}
    for name, by_tool in results.items():
        native, other = by_tool.get("native", {}), by_tool.get(tool)
        if native.get("status") != "ok" or other is None:
            continue
        if other["status"] == "ok":
            out[name] = {"wall": other["wall_s"] / native["wall_s"], "gpu": other["gpu_ms"] / native["gpu_ms"]}
        elif other["status"] == "timeout":
            out[name] = {"wall_at_least": other["wall_s_at_least"] / native["wall_s"]}
    return out


def geometric_mean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def summarise(results, tools):
    summary = {}
    for tool in tools:
        if tool == "native":
            continue
        per = slowdowns(results, tool)
        measured = [s["wall"] for s in per.values() if "wall" in s]
        summary[tool] = {"per_workload": per, "geomean_wall": geometric_mean(measured),
                         "geomean_gpu": geometric_mean([s["gpu"] for s in per.values() if "gpu" in s]),
                         "measured": len(measured), "timeouts": len(per) - len(measured)}
    if "racecheck" in summary and "barracuda" in summary:
        rc, bc = summary["racecheck"]["per_workload"], summary["barracuda"]["per_workload"]
        summary["barracuda_over_racecheck"] = {
            name: bc[name]["wall"] / rc[name]["wall"]
            for name in bc if "wall" in bc[name] and "wall" in rc.get(name, {})}
        summary["against_racecheck"] = against_racecheck(rc, bc)
    return summary


def wall_or_bound(entry):
    return entry["wall"] if "wall" in entry else entry["wall_at_least"]


def against_racecheck(rc, bc, bound=3.0):
    """What "Performance II" asks of the two tools' wall slowdowns in one run: over the workloads barracuda
    finishes, both geometric means (racecheck's a lower bound where it timed out there), and the workloads
    where barracuda takes more than `bound` times racecheck's time while racecheck finishes (or where
    barracuda timed out and racecheck did not)."""
    finished = [name for name in bc if "wall" in bc[name] and name in rc]
    over = sorted(name for name in bc if name in rc and "wall" in rc[name] and
                  ("wall" not in bc[name] or bc[name]["wall"] > bound * rc[name]["wall"]))
    return {"workloads": finished,
            "barracuda_geomean_wall": geometric_mean([bc[n]["wall"] for n in finished]),
            "racecheck_geomean_wall": geometric_mean([wall_or_bound(rc[n]) for n in finished]),
            "racecheck_geomean_is_lower_bound": any("wall" not in rc[n] for n in finished),
            "over_bound": over, "bound": bound}


def format_slowdown(entry):
    if entry is None:
        return "-"
    if "wall" not in entry:
        return f">{entry['wall_at_least']:.0f}x (timeout)"
    return f"{entry['wall']:.1f}x (GPU {entry['gpu']:.1f}x)"


def markdown_table(results, summary, tools):
    extra = [t for t in tools if t != "native"]
    ratio = summary.get("barracuda_over_racecheck")
    header = ["workload", "native wall s", "native GPU ms"] + [f"{t} slowdown (wall, GPU time)" for t in extra]
    if ratio is not None:
        header.append("barracuda/racecheck")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, by_tool in results.items():
        native = by_tool["native"]
        row = [name] + ([f"{native['wall_s']:.2f}", f"{native['gpu_ms']:.1f}"] if native["status"] == "ok"
                        else [native["status"], "-"])
        row += [format_slowdown(summary[t]["per_workload"].get(name)) for t in extra]
        if ratio is not None:
            row.append(f"{ratio[name]:.2f}" if name in ratio else "-")
        lines.append("| " + " | ".join(row) + " |")
    geo = ["**geometric mean**", "", ""]
    for t in extra:
        g, gpu = summary[t]["geomean_wall"], summary[t]["geomean_gpu"]
        geo.append(f"**{g:.1f}x** (GPU {gpu:.1f}x; {summary[t]['measured']} measured)" if g else "-")
    if ratio is not None:
        g = geometric_mean(list(ratio.values()))
        geo.append(f"**{g:.2f}**" if g else "-")
    lines.append("| " + " | ".join(geo) + " |")
    against = summary.get("against_racecheck")
    if against and against["workloads"]:
        rc_geo = against["racecheck_geomean_wall"]
        lines.append("")
        lines.append(f"Over the {len(against['workloads'])} workloads barracuda finishes: barracuda "
                     f"{against['barracuda_geomean_wall']:.1f}x, racecheck "
                     f"{'at least ' if against['racecheck_geomean_is_lower_bound'] else ''}{rc_geo:.1f}x; "
                     f"over {against['bound']:g}x racecheck's time where racecheck finishes: "
                     f"{', '.join(against['over_bound']) or 'none'}.")
    return "\n".join(lines)


def format_figure(value, scale=1.0, digits=2):
    return "-" if value is None else f"{value / scale:.{digits}f}"


def overhead_table(results):
    """Barracuda's costs per workload: medians of the timed runs' report statistics."""
    header = ["workload", "events", "bytes/event", "drain M events/s", "engine s", "JIT s",
              "cache load s", "queue MiB", "peak RSS MiB"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, by_tool in results.items():
        tool = by_tool.get("barracuda")
        if tool is None:
            continue
        figures = tool.get("statistics", {})
        # The warm-up's JIT where there was one (--warm-up), else what the timed runs spent compiling.
        jit = tool["jit"].get("report", {}).get("jit_seconds") if "jit" in tool else figures.get("jit_seconds")
        row = [name] + [format_figure(*column) for column in (
            (figures.get("events"), 1, 0), (figures.get("bytes_per_event"), 1, 1),
            (figures.get("drain_events_per_second"), 1e6, 1), (figures.get("engine_seconds"),),
            (jit,), (figures.get("cache_load_seconds"),), (figures.get("queue_bytes"), 2 ** 20, 1),
            (tool.get("maxrss_kib"), 1024, 0))]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def draw_plot(summary, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("run_bench: matplotlib not installed, no plot drawn")
        return None
    tools = [t for t in ("racecheck", "barracuda") if t in summary]
    names = sorted({n for t in tools for n, s in summary[t]["per_workload"].items() if "wall" in s})
    if not names:
        return None
    fig, ax = plt.subplots(figsize=(max(6, len(names) * 0.7), 4))
    width = 0.8 / len(tools)
    for i, tool in enumerate(tools):
        per = summary[tool]["per_workload"]
        ax.bar([x + i * width for x in range(len(names))],
               [per[n]["wall"] if "wall" in per.get(n, {}) else 0 for n in names], width, label=tool)
    ax.set_xticks([x + width * (len(tools) - 1) / 2 for x in range(len(names))], names, rotation=45, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("slowdown vs native (wall time)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def merge_parts(paths, out_dir):
    """One results document from several runs of the harness over parts of the workloads (the device
    tool limits one command to 10 minutes): results merged, summary recomputed, tables printed."""
    parts = [json.loads(Path(path).read_text()) for path in paths]
    first = parts[0]
    for part in parts[1:]:
        if (part["schema"], part["device"], part["tools"]) != (first["schema"], first["device"], first["tools"]):
            raise SystemExit(f"run_bench: {paths[0]} and the other parts differ in schema, device or tools")
    results = {name: by_tool for part in parts for name, by_tool in part["results"].items()}
    tools = {tool: None for tool in first["tools"]}
    summary = summarise(results, tools)
    document = {**first, "command": " + ".join(part["command"] for part in parts),
                "harness_seconds": sum(part["harness_seconds"] for part in parts), "results": results,
                "summary": summary}
    stem = Path(paths[0]).stem
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / f"{stem}.json"
    json_path.write_text(json.dumps(document, indent=1) + "\n")
    print("\n" + markdown_table(results, summary, tools) + "\n")
    if "barracuda" in tools:
        print(overhead_table(results) + "\n")
    print(f"run_bench: merged {len(parts)} parts into {json_path}")
    plot = draw_plot(summary, out_dir / f"{stem}.png")
    if plot:
        print(f"run_bench: wrote {plot}")
    return 0


def main(argv):
    if argv[:1] == ["--merge"]:
        if len(argv) < 4 or "--out-dir" not in argv[1:-1]:
            print("usage: run_bench.py --merge PART.json... --out-dir DIR", file=sys.stderr)
            return 2
        at = argv.index("--out-dir")
        return merge_parts(argv[1:at], Path(argv[at + 1]))
    args = parse_args(argv)
    workloads = discover_workloads(args.bin_dir, args.workloads)
    device = device_name(args.device)
    tools = tool_commands(args)
    started = time.perf_counter()
    results = {}
    with tempfile.TemporaryDirectory(prefix="gpubench-") as scratch:
        for name, executable in workloads.items():
            results[name] = {}
            for tool, (make_command, timeout_s) in tools.items():
                results[name][tool] = measure(name, executable, tool, make_command, timeout_s, args,
                                              Path(scratch))
                if tool == "native" and results[name][tool]["status"] != "ok":
                    break  # nothing to compare against
    summary = summarise(results, tools)

    today = datetime.date.today().isoformat()
    stem = f"{today}-{re.sub(r'[^a-z0-9]+', '-', device.lower()).strip('-')}"
    document = {"schema": SCHEMA, "date": today, "device": device, "host": socket.gethostname(),
                "command": " ".join([Path(sys.argv[0]).name, *argv]), "scale": args.scale,
                "repetitions": args.repetitions, "tools": list(tools),
                "harness_seconds": time.perf_counter() - started,
                "results": results, "summary": summary}
    args.out_dir.mkdir(parents=True, exist_ok=True)
    json_path = args.out_dir / f"{stem}.json"
    json_path.write_text(json.dumps(document, indent=1) + "\n")
    print("\n" + markdown_table(results, summary, tools) + "\n")
    if "barracuda" in tools:
        print(overhead_table(results) + "\n")
    for tool in tools:
        alarms = [name for name, by_tool in results.items() if by_tool.get(tool, {}).get("race_reports")]
        if alarms:
            print(f"run_bench: {tool} reported races on (race-free) {', '.join(alarms)}")
    print(f"run_bench: wrote {json_path} ({document['harness_seconds']:.0f} s)")
    if not args.no_plot:
        plot = draw_plot(summary, args.out_dir / f"{stem}.png")
        if plot:
            print(f"run_bench: wrote {plot}")

    if all(by_tool["native"]["status"] == "skipped" for by_tool in results.values()):
        print("run_bench: no GPU here, nothing measured", file=sys.stderr)
        return NO_GPU_EXIT_CODE
    broken = [f"{name} ({tool}: {s['status']})"
              for name, by_tool in results.items() for tool, s in by_tool.items()
              if s["status"] in ("FAIL", "error")]
    if broken:
        print("run_bench: wrong or missing results: " + ", ".join(broken), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#include "report/text_renderer.h"

#include <algorithm>
#include <string>

#include "report/fingerprint.h"
#include "report/names.h"
#include "report/summary_counts.h"
#include "report/value_text.h"

namespace barracuda::report {
namespace {

constexpr std::string_view kSeparator = "==================\n";

std::string thread_text(const ThreadCoordinates& t) {
  std::string text = "thread " + coord_text(t.thread) + " of block " + coord_text(t.block) + " (warp " +
                     std::to_string(t.warp) + ", lane " + std::to_string(t.lane) + ")";
  if (t.child_grid) {
    text += " of a child grid <<<" + coord_text(t.child_grid->grid) + ", " + coord_text(t.child_grid->block) +
            ">>> launched from the device";
  }
  return text;
}

// " on GPU 1": named where a race involves a GPU other than the first (a process using one GPU, its
// first, reads as before).
std::string device_text(const Race& race, const Access& access) {
  const bool named = race.race_class == RaceClass::kInterDevice || race.current.device.value_or(0) != 0 ||
                     race.previous.device.value_or(0) != 0;
  return named && access.device ? " on GPU " + std::to_string(*access.device) : "";
}

void print_stack(const Site& site, std::ostream& out) {
  out << "    #0 " << site.function;
  if (site.source.known()) {
    out << " at " << source_location_text(site.source);
    if (site.ptx_line != 0) out << " (PTX line " << site.ptx_line << ')';
  } else if (site.ptx_line != 0) {
    out << " at PTX line " << site.ptx_line;
  }  // else machine code checked by the SASS back end: the function names the instruction's offset
  out << '\n';
  int depth = 1;
  for (const InlinedFrame& frame : site.inlined_at) {
    out << "    #" << depth++ << ' ' << frame.function << " at " << source_location_text(frame.location) << '\n';
  }
}

// "Write", "Atomic (relaxed.gpu)", "Read (acquire.gpu)": strong accesses show their qualifiers.
std::string access_description(const Access& access) {
  std::string text{name_of(kAccessOperationNames, access.kind)};
  if (access.semantics != MemorySemantics::kWeak) {
    text += " (";
    text += name_of(kMemorySemanticsNames, access.semantics);
    text += '.';
    text += name_of(kMemoryScopeNames, access.scope);
    text += ')';
  }
  return text;
}

std::string capitalized(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

// "  In process 4711: ./app --flag" for findings of a report merged over several processes.
void print_process(const Report& report, uint32_t pid, std::ostream& out) {
  if (pid == 0) return;
  out << "  In process " << pid;
  const auto process = std::find_if(report.processes.begin(), report.processes.end(),
                                    [pid](const ProcessInfo& p) { return p.pid == pid; });
  if (process != report.processes.end() && !process->command_line.empty()) {
    out << ':';
    for (const std::string& argument : process->command_line) out << ' ' << argument;
  }
  out << '\n';
}

// "  Found with --perturb 3" for findings of `barracuda run --explore`.
void print_seed(uint64_t seed, std::ostream& out) {
  if (seed != 0) out << "  Found with --perturb " << seed << " (that option runs the same delays again)\n";
}

void print_race(const Report& report, const Race& race, std::ostream& out) {
  if (race.same_value) {
    out << kSeparator << "WARNING: barracuda: same-value write-write (" << name_of(kRaceClassNames, race.race_class)
        << ", " << name_of(kMemorySpaceNames, race.space) << ") in kernel " << race.kernel
        << ": both stores only ever wrote the same value and nothing read the location between them\n";
  } else if (race.unfenced_acquire) {
    out << kSeparator << "WARNING: barracuda: unfenced acquire (" << name_of(kRaceClassNames, race.race_class) << ", "
        << name_of(kMemorySpaceNames, race.space) << ", " << name_of(kHazardNames, race.hazard) << ") in kernel "
        << race.kernel << ": ordered only by the control dependency of a spin on an atomic; missing: "
        << race.unfenced_acquire->missing_fence << '\n';
  } else {
    out << kSeparator << "WARNING: barracuda: data race (" << name_of(kRaceClassNames, race.race_class) << ", "
        << name_of(kMemorySpaceNames, race.space) << ", " << name_of(kHazardNames, race.hazard) << ") in kernel "
        << race.kernel << '\n';
  }
  const std::string where = " of size " + std::to_string(race.size) + " at " + address_text(race.address) + " by ";
  out << "  " << capitalized(access_description(race.current)) << where << thread_text(race.current.thread)
      << device_text(race, race.current) << ":\n";
  print_stack(race.current.site, out);
  if (race.current.out_of_bounds) {
    out << "    Out of bounds: " << out_of_bounds_text(*race.current.out_of_bounds, race.address) << '\n';
  }
  out << "  Previous " << access_description(race.previous) << where << thread_text(race.previous.thread)
      << device_text(race, race.previous) << ":\n";
  print_stack(race.previous.site, out);
  if (race.previous.out_of_bounds) {
    out << "    Out of bounds: " << out_of_bounds_text(*race.previous.out_of_bounds, race.address) << '\n';
  }
  if (race.unfenced_acquire) {
    out << "  Spin on the flag (no acquire fence after it):\n";
    print_stack(race.unfenced_acquire->flag, out);
  }
  if (race.flag_hand_off) {
    out << "  Handed over through the flag at " << address_text(race.flag_hand_off->address)
        << " with no fence on either side (a fence before its write and one after its read would order the pair)\n"
        << "  Flag written (no fence before it):\n";
    print_stack(race.flag_hand_off->write, out);
    out << "  Flag read (no fence after it):\n";
    print_stack(race.flag_hand_off->read, out);
  }
  if (race.allocation) out << "  Memory: " << allocation_text(*race.allocation, race.size, race.address) << '\n';
  out << "  Launch " << race.launch_index << ", seen " << race.dynamic_count
      << (race.dynamic_count == 1 ? " time" : " times") << ", fingerprint " << race_fingerprint(race)
      << (race.known ? " (known: in the baseline)" : "") << '\n';
  print_process(report, race.pid, out);
  print_seed(race.perturb_seed, out);
  out << "SUMMARY: barracuda: "
      << (race.same_value ? "same-value write-write " : race.unfenced_acquire ? "unfenced acquire " : "data race ")
      << site_position_text(race.current.site) << " in "
      << race.current.site.function << '\n';
}

void print_diagnostic(const Report& report, const Diagnostic& diagnostic, std::ostream& out) {
  const bool divergence = diagnostic.kind == DiagnosticKind::kBarrierDivergence;
  const std::string_view name = divergence ? "barrier divergence" : "redundant barrier";
  out << kSeparator << (divergence ? "ERROR" : "WARNING") << ": barracuda: " << name << " in kernel "
      << diagnostic.kernel << '\n';
  out << "  Barrier reached by " << thread_text(diagnostic.thread) << ":\n";
  print_stack(diagnostic.site, out);
  if (!diagnostic.detail.empty()) out << "  " << diagnostic.detail << '\n';
  out << "  Launch " << diagnostic.launch_index << '\n';
  print_process(report, diagnostic.pid, out);
  print_seed(diagnostic.perturb_seed, out);
  out << "SUMMARY: barracuda: " << name << ' ' << site_position_text(diagnostic.site) << " in "
      << diagnostic.site.function << '\n';
}

// "1 launch", "2 launches".
std::string count_of(uint64_t count, std::string_view singular, std::string_view plural) {
  return std::to_string(count) + ' ' + std::string{count == 1 ? singular : plural};
}

// "a, b and 3 more kernels": a kind many kernels hold must not flood the summary.
std::string join_kernels(const std::vector<std::string>& kernels) {
  constexpr size_t kNamed = 3;
  std::string text;
  for (size_t i = 0; i < kernels.size() && i < kNamed; ++i) text += (i == 0 ? "" : ", ") + kernels[i];
  if (kernels.size() > kNamed) text += " and " + count_of(kernels.size() - kNamed, "more kernel", "more kernels");
  return text;
}

void print_final_line(const Report& report, std::ostream& out) {
  const SummaryCounts counts = count_summary(report);
  const Summary& summary = report.summary;
  out << "barracuda: " << count_of(counts.unique_races, "unique race", "unique races") << " (" << counts.new_races
      << " new, " << counts.unique_races - counts.new_races << " known; " << counts.dynamic_races << " dynamic), "
      << count_of(counts.barrier_divergences, "barrier divergence", "barrier divergences") << ", "
      << count_of(counts.warnings, "warning", "warnings") << ", " << summary.suppressed_races << " suppressed; "
      // kernels_skipped names modules without instrumentation and launches that could not be
      // checked alike (no queues): "not checked" is true of both.
      << count_of(summary.kernels_instrumented, "kernel instrumented", "kernels instrumented") << ", "
      << summary.kernels_skipped.size() << " not checked, " << count_of(summary.launches, "launch", "launches")
      << (summary.launches_filtered == 0 ? "" : " (" + std::to_string(summary.launches_filtered) + " left out by the launch filters)")
      << ", " << count_of(summary.events, "event", "events") << ", " << summary.dropped_events << " dropped"
      << (report.processes.empty() ? "" : ", " + count_of(report.processes.size(), "process", "processes"))
      << (analysis_incomplete(report) ? "; ANALYSIS INCOMPLETE" : "") << '\n';
}

}  // namespace

void render_text(const Report& report, const TextOptions& options, std::ostream& out) {
  if (options.summary_only) return print_final_line(report, out);
  const uint64_t total = report.races.size() + report.diagnostics.size();
  const uint64_t limit = options.print_limit == 0 ? total : options.print_limit;
  uint64_t printed = 0;
  for (const Race& race : report.races) {
    if (printed++ < limit) print_race(report, race, out);
  }
  for (const Diagnostic& diagnostic : report.diagnostics) {
    if (printed++ < limit) print_diagnostic(report, diagnostic, out);
  }
  if (total != 0) out << kSeparator;
  if (total > limit) {
    out << "barracuda: print limit " << limit << " reached: " << total - limit
        << " more reports not printed (all are in the JSON report)\n";
  }
  if (!report.summary.kernels_machine_code.empty()) {
    out << "barracuda: checked through their machine code (no PTX; SASS back end: fences and memory orders not seen): "
        << join_kernels(report.summary.kernels_machine_code) << '\n';
  }
  for (const std::string& library : report.summary.library_code) {
    out << "barracuda: library code, not checked: " << library << '\n';
  }
  for (const SkippedKernel& skipped : report.summary.kernels_skipped) {
    out << "barracuda: NOT checked: " << skipped.kernel << ": " << skipped.reason << '\n';
  }
  for (const UnloggedInstructions& unlogged : report.summary.unlogged_instructions) {
    out << "barracuda: not logged: " << unlogged.kind << " instructions in " << join_kernels(unlogged.kernels)
        << ": races through them are not checked\n";
  }
  if (report.summary.dropped_events != 0) {
    out << "barracuda: " << report.summary.dropped_events
        << " events were dropped (queues full): races among them may be missed\n";
  }
  print_final_line(report, out);
}

}  // namespace barracuda::report

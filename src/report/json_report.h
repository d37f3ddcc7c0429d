#pragma once
// The report as JSON (nlohmann-json), written by the runtime and read back by `barracuda report` and
// by baselines. Layout, schema "barracuda-report" version kReportSchemaVersion:
//   { "schema": "barracuda-report", "schema_version": 1,
//     "run":     { tool_version, command_line[], device_name, start_time, warp_model,
//                  pid (the writing process; 0 in a merged report) },
//     "summary": { kernels_instrumented, kernels_machine_code[kernel], library_code[text] (optional: libraries
//                  whose own kernels are not checked by design, such as NCCL's), kernels_skipped[{kernel, reason}],
//                  unlogged_instructions (optional: memory instructions checked kernels held but
//                  did not log, [{kind, kernels[]}]), launches,
//                  launches_filtered (optional: left out by the launch filters), events,
//                  dropped_events, suppressed_races,
//                  derived, ignored when read: unique_races, new_races, dynamic_races,
//                  barrier_divergences, warnings, analysis_incomplete },
//     "races":   [{ fingerprint (derived, ignored when read), class, hazard, space, scope,
//                   address ("0x..." string: 64-bit values do not survive JavaScript numbers),
//                   size, kernel, launch_index, dynamic_count, known, current, previous,
//                   pid (merged reports only), same_value (optional, true: the warning class
//                   "same-value write-write", not counted as a race), unfenced_acquire (optional,
//                   { flag: site, missing_fence }: the warning class "unfenced acquire"),
//                   allocation (optional: absent where allocations were not tracked) }],
//     "diagnostics": [{ kind, kernel, launch_index, site, thread, detail, pid (merged reports only) }],
//     "statistics": { slots, queue_host_bytes, queue_device_bytes, drain_threads, drain_wait_seconds,
//                     engine_seconds, engine_thread_accesses, engine_peak_resident_blocks,
//                     engine_repeated_reads, engine_peak_held_back_records, engine_records_applied_at_launch_end
//                     (optional when read),
//                     launches_global_on_device, global_on_host_reason (both optional when read),
//                     modules_instrumented, cache_misses, jit_seconds, cache_hits, cache_load_seconds,
//                     derived, ignored when read (report/statistics.h): events (= summary.events),
//                     bytes_logged, bytes_per_event, queue_bytes, drain_events_per_second,
//                     engine_thread_accesses_per_second },
//     "processes": [{ pid, command_line[] }]  (merged reports only: every process that wrote a report) }
//   access = { kind, semantics, scope, thread, site, device (optional: the CUDA device ordinal its
//              kernel ran on) }
//   thread = { block: [x,y,z], thread: [x,y,z], warp, lane, child_grid (optional: { grid: [x,y,z],
//              block: [x,y,z] }, the thread ran in a grid launched from the device; block is its block there) }
//   site   = { function, ptx_line, file, line, column, inlined_at[{function, file, line, column}] }
//   allocation = { kind; unless kind is none: offset ("0x..."), and for shared: block [x,y,z]; for the
//                  others: base ("0x..."), size, symbol (device-variable only), allocated_by[] (host
//                  frames, innermost first; empty where not taken) }
// Enum values are spelled as in report/names.h. line 0 means no line info. Seconds are JSON numbers.
// "statistics", the pids, "processes", "allocation", an access's "device" and a thread's "child_grid" are optional (reports written before they existed lack them,
// and readers of those ignore them): adding them kept version 1.
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "report/model.h"

namespace barracuda::report {

inline constexpr std::string_view kReportSchemaName = "barracuda-report";
inline constexpr int kReportSchemaVersion = 1;

// Bad JSON or a document that does not follow the schema; what() names the offending field.
class ReportFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

nlohmann::ordered_json report_to_json(const Report& report);
// A race's allocation as the report spells it (also SARIF's result property "allocation").
nlohmann::ordered_json allocation_json(const Allocation& allocation);
std::string render_json(const Report& report);  // pretty-printed, newline-terminated

Report report_from_json(const nlohmann::json& document);
Report parse_json_report(std::string_view text);  // throws ReportFormatError

}  // namespace barracuda::report

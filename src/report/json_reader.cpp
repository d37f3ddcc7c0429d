#include <cmath>
#include <limits>
#include <utility>

#include "report/json_report.h"
#include "report/names.h"
#include "report/value_text.h"

namespace barracuda::report {
namespace {

using Json = nlohmann::json;

// A JSON value plus the path that led to it ("races[2].current.kind"), so every error names the field.
class Node {
 public:
  Node(const Json& value, std::string path) : value_(value), path_(std::move(path)) {}

  bool has(std::string_view key) const { return value_.is_object() && value_.contains(key); }

  Node field(std::string_view key) const {
    if (!value_.is_object()) fail(path_, "expected an object");
    auto it = value_.find(key);
    if (it == value_.end()) fail(child_path(key), "missing");
    return Node{*it, child_path(key)};
  }

  std::vector<Node> elements() const {
    if (!value_.is_array()) fail(path_, "expected an array");
    std::vector<Node> nodes;
    nodes.reserve(value_.size());
    for (size_t i = 0; i < value_.size(); ++i) nodes.emplace_back(value_[i], path_ + '[' + std::to_string(i) + ']');
    return nodes;
  }

  std::string string() const {
    if (!value_.is_string()) fail(path_, "expected a string");
    return value_.get<std::string>();
  }

  uint64_t u64() const {
    if (!value_.is_number_unsigned()) fail(path_, "expected a non-negative integer");
    return value_.get<uint64_t>();
  }

  uint32_t u32() const {
    const uint64_t value = u64();
    if (value > std::numeric_limits<uint32_t>::max()) fail(path_, "does not fit in 32 bits");
    return static_cast<uint32_t>(value);
  }

  int64_t integer() const {
    if (!value_.is_number_integer()) fail(path_, "expected an integer");
    return value_.get<int64_t>();
  }

  Seconds seconds() const {
    const double value = value_.is_number() ? value_.get<double>() : -1.0;
    if (!(value >= 0) || !std::isfinite(value)) fail(path_, "expected a non-negative number of seconds");
    return Seconds{value};
  }

  bool boolean() const {
    if (!value_.is_boolean()) fail(path_, "expected true or false");
    return value_.get<bool>();
  }

  template <typename Enum, size_t N>
  Enum enumeration(const std::array<NamedValue<Enum>, N>& table) const {
    const std::string name = string();
    if (auto value = value_of(table, name)) return *value;
    std::string expected;
    for (const auto& entry : table) {
      expected += expected.empty() ? "" : ", ";
      expected += entry.name;
    }
    fail(path_, "unknown value \"" + name + "\" (expected one of: " + expected + ")");
  }

  uint64_t address() const {
    const std::string text = string();
    if (auto value = parse_address_text(text)) return *value;
    fail(path_, "expected a hex address like \"0x1000\", got \"" + text + "\"");
  }

  const std::string& path() const { return path_; }

  [[noreturn]] static void fail(const std::string& path, const std::string& problem) {
    throw ReportFormatError("JSON report: " + (path.empty() ? "top level" : path) + ": " + problem);
  }

 private:
  std::string child_path(std::string_view key) const {
    return path_.empty() ? std::string{key} : path_ + '.' + std::string{key};
  }

  const Json& value_;
  std::string path_;
};

Coord3 read_coord(const Node& node) {
  const std::vector<Node> parts = node.elements();
  if (parts.size() != 3) Node::fail(node.path(), "expected [x, y, z]");
  return Coord3{parts[0].u32(), parts[1].u32(), parts[2].u32()};
}

ThreadCoordinates read_thread(const Node& node) {
  ThreadCoordinates thread{read_coord(node.field("block")), read_coord(node.field("thread")),
                           node.field("warp").u32(), node.field("lane").u32(), std::nullopt};
  if (node.has("child_grid")) {
    const Node child = node.field("child_grid");
    thread.child_grid = ChildGrid{read_coord(child.field("grid")), read_coord(child.field("block"))};
  }
  return thread;
}

SourceLocation read_location(const Node& node) {
  return SourceLocation{node.field("file").string(), node.field("line").u32(), node.field("column").u32()};
}

Site read_site(const Node& node) {
  Site site{node.field("function").string(), node.field("ptx_line").u32(), read_location(node), {}};
  for (const Node& frame : node.field("inlined_at").elements()) {
    site.inlined_at.push_back(InlinedFrame{frame.field("function").string(), read_location(frame)});
  }
  return site;
}

Allocation read_allocation(const Node& node) {
  Allocation allocation;
  allocation.kind = node.field("kind").enumeration(kAllocationKindNames);
  if (allocation.kind == AllocationKind::kNone) return allocation;
  allocation.offset = node.field("offset").address();
  if (allocation.kind == AllocationKind::kShared) {
    allocation.block = read_coord(node.field("block"));
    return allocation;
  }
  allocation.base = node.field("base").address();
  allocation.size = node.field("size").u64();
  if (node.has("symbol")) allocation.symbol = node.field("symbol").string();
  for (const Node& frame : node.field("allocated_by").elements()) allocation.allocated_by.push_back(frame.string());
  return allocation;
}

Access read_access(const Node& node) {
  Access access{read_site(node.field("site")), read_thread(node.field("thread")),
                node.field("kind").enumeration(kAccessOperationNames),
                node.field("semantics").enumeration(kMemorySemanticsNames),
                node.field("scope").enumeration(kMemoryScopeNames)};
  if (node.has("out_of_bounds")) {  // optional
    const Node out_of_bounds = node.field("out_of_bounds");
    access.out_of_bounds = OutOfBounds{out_of_bounds.field("parameter").u32(),
                                       out_of_bounds.field("parameter_type").string(),
                                       read_allocation(out_of_bounds.field("pointee"))};
  }
  if (node.has("device")) access.device = node.field("device").u32();  // optional
  return access;
}

Race read_race(const Node& node) {
  Race race;
  race.race_class = node.field("class").enumeration(kRaceClassNames);
  race.hazard = node.field("hazard").enumeration(kHazardNames);
  race.space = node.field("space").enumeration(kMemorySpaceNames);
  race.scope = node.field("scope").enumeration(kMemoryScopeNames);
  race.address = node.field("address").address();
  race.size = node.field("size").u32();
  race.kernel = node.field("kernel").string();
  race.launch_index = node.field("launch_index").u32();
  race.dynamic_count = node.field("dynamic_count").u64();
  race.known = node.field("known").boolean();
  race.current = read_access(node.field("current"));
  race.previous = read_access(node.field("previous"));
  if (node.has("pid")) race.pid = node.field("pid").u32();
  if (node.has("perturb_seed")) race.perturb_seed = node.field("perturb_seed").u64();
  if (node.has("same_value")) race.same_value = node.field("same_value").boolean();
  if (node.has("unfenced_acquire")) {
    const Node unfenced = node.field("unfenced_acquire");
    race.unfenced_acquire = UnfencedAcquire{read_site(unfenced.field("flag")), unfenced.field("missing_fence").string()};
  }
  if (node.has("flag_hand_off")) {
    const Node flag = node.field("flag_hand_off");
    race.flag_hand_off =
        FlagHandOff{read_site(flag.field("write")), read_site(flag.field("read")), flag.field("address").address()};
  }
  if (node.has("allocation")) race.allocation = read_allocation(node.field("allocation"));
  return race;
}

Diagnostic read_diagnostic(const Node& node) {
  Diagnostic diagnostic{node.field("kind").enumeration(kDiagnosticKindNames), node.field("kernel").string(),
                        node.field("launch_index").u32(), read_site(node.field("site")),
                        read_thread(node.field("thread")), node.field("detail").string()};
  if (node.has("pid")) diagnostic.pid = node.field("pid").u32();
  if (node.has("perturb_seed")) diagnostic.perturb_seed = node.field("perturb_seed").u64();
  return diagnostic;
}

std::vector<std::string> read_command_line(const Node& node) {
  std::vector<std::string> arguments;
  for (const Node& argument : node.elements()) arguments.push_back(argument.string());
  return arguments;
}

RunInfo read_run(const Node& node) {
  RunInfo run;
  run.tool_version = node.field("tool_version").string();
  run.command_line = read_command_line(node.field("command_line"));
  run.device_name = node.field("device_name").string();
  run.start_time = node.field("start_time").string();
  run.warp_model = node.field("warp_model").enumeration(kWarpModelNames);
  if (node.has("pid")) run.pid = node.field("pid").u32();  // reports written before it lack it
  return run;
}

Summary read_summary(const Node& node) {
  Summary summary;
  summary.kernels_instrumented = node.field("kernels_instrumented").u64();
  if (node.has("kernels_machine_code")) {  // reports written before the SASS back end lack it
    for (const Node& kernel : node.field("kernels_machine_code").elements()) {
      summary.kernels_machine_code.push_back(kernel.string());
    }
  }
  if (node.has("library_code")) {  // optional
    for (const Node& library : node.field("library_code").elements()) summary.library_code.push_back(library.string());
  }
  for (const Node& skipped : node.field("kernels_skipped").elements()) {
    summary.kernels_skipped.push_back(SkippedKernel{skipped.field("kernel").string(), skipped.field("reason").string()});
  }
  if (node.has("unlogged_instructions")) {  // reports written before it lack it
    for (const Node& unlogged : node.field("unlogged_instructions").elements()) {
      UnloggedInstructions instructions{unlogged.field("kind").string(), {}};
      for (const Node& kernel : unlogged.field("kernels").elements()) instructions.kernels.push_back(kernel.string());
      summary.unlogged_instructions.push_back(std::move(instructions));
    }
  }
  summary.launches = node.field("launches").u64();
  if (node.has("launches_filtered")) summary.launches_filtered = node.field("launches_filtered").u64();
  summary.events = node.field("events").u64();
  summary.dropped_events = node.field("dropped_events").u64();
  summary.suppressed_races = node.field("suppressed_races").u64();
  return summary;
}

Statistics read_statistics(const Node& node) {
  Statistics statistics;
  statistics.slots = node.field("slots").u64();
  statistics.queue_host_bytes = node.field("queue_host_bytes").u64();
  statistics.queue_device_bytes = node.field("queue_device_bytes").u64();
  statistics.drain_threads = node.field("drain_threads").u32();
  statistics.drain_wait = node.field("drain_wait_seconds").seconds();
  statistics.engine_time = node.field("engine_seconds").seconds();
  statistics.engine_thread_accesses = node.field("engine_thread_accesses").u64();
  statistics.engine_peak_resident_blocks = node.field("engine_peak_resident_blocks").u64();
  if (node.has("engine_repeated_reads")) {  // reports written before 2026-11-27 (later) lack it
    statistics.engine_repeated_reads = node.field("engine_repeated_reads").u64();
  }
  if (node.has("engine_peak_held_back_records")) {  // reports written before 2026-11-27 lack it
    statistics.engine_peak_held_back_records = node.field("engine_peak_held_back_records").u64();
  }
  if (node.has("engine_records_applied_at_launch_end")) {  // reports written before 2026-11-28 lack it
    statistics.engine_records_applied_at_launch_end = node.field("engine_records_applied_at_launch_end").u64();
  }
  // Reports written before device checking of global memory lack both.
  if (node.has("launches_global_on_device")) {
    statistics.launches_global_on_device = node.field("launches_global_on_device").u64();
  }
  if (node.has("global_on_host_reason")) statistics.global_on_host_reason = node.field("global_on_host_reason").string();
  statistics.modules_instrumented = node.field("modules_instrumented").u64();
  statistics.cache_misses = node.field("cache_misses").u64();
  statistics.jit_time = node.field("jit_seconds").seconds();
  statistics.cache_hits = node.field("cache_hits").u64();
  statistics.cache_load_time = node.field("cache_load_seconds").seconds();
  return statistics;
}

}  // namespace

Report report_from_json(const Json& document) {
  const Node root{document, ""};
  if (root.field("schema").string() != kReportSchemaName) {
    Node::fail("schema", "not a barracuda report (expected \"" + std::string{kReportSchemaName} + "\")");
  }
  const int64_t version = root.field("schema_version").integer();
  if (version != kReportSchemaVersion) {
    Node::fail("schema_version", "version " + std::to_string(version) + " is not supported (this barracuda reads " +
                                     std::to_string(kReportSchemaVersion) + ")");
  }
  Report report;
  report.run = read_run(root.field("run"));
  report.summary = read_summary(root.field("summary"));
  for (const Node& race : root.field("races").elements()) report.races.push_back(read_race(race));
  for (const Node& diagnostic : root.field("diagnostics").elements()) {
    report.diagnostics.push_back(read_diagnostic(diagnostic));
  }
  if (root.has("statistics")) report.statistics = read_statistics(root.field("statistics"));
  if (root.has("processes")) {
    for (const Node& process : root.field("processes").elements()) {
      report.processes.push_back(ProcessInfo{process.field("pid").u32(), read_command_line(process.field("command_line"))});
    }
  }
  return report;
}

Report parse_json_report(std::string_view text) {
  Json document;
  try {
    document = Json::parse(text);
  } catch (const Json::exception& error) {  // parse_error, or out_of_range for numbers beyond 64 bits
    throw ReportFormatError(std::string{"JSON report: "} + error.what());
  }
  return report_from_json(document);
}

}  // namespace barracuda::report

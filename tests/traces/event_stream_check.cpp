// Checks the event stream of tests/e2e/access_patterns.cu record by record: every warp's records in
// order (operation, active mask, address encoding, stride, memory space, source line of the site) and
// the lane addresses relative to each other. Run on a trace that `barracuda run --record` wrote for
// that program: in CI on the committed H100 fixture, on the GPU on a fresh recording.
//
//   event_stream_check TRACE   (exit 0: the stream is exactly as expected; 1: the first mismatches)
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/queue_record.h"
#include "trace/trace_reader.h"

namespace barracuda {
namespace {

constexpr uint32_t kFullWarp = 0xffffffffu;
constexpr uint32_t kNoLine = 0;  // branch, reconvergence and lifetime records: line not checked

struct ExpectedRecord {
  RecordOp op;
  uint32_t mask = kFullWarp;
  uint32_t line = kNoLine;
  AddressMode mode = AddressMode::kAffine;
  int32_t stride = 0;
  MemorySpace space = MemorySpace::kGlobal;
};

struct Warp {
  std::vector<RecordView> records;
  std::vector<std::vector<RecordHeader>> storage;  // keeps each view's slots alive
};

struct Launch {
  trace::LaunchDescriptor descriptor;
  std::map<std::pair<uint32_t, uint32_t>, Warp> warps;  // (block, warp) -> records in logging order
};

struct Trace {
  std::vector<trace::SiteInfo> sites;  // by global site id
  std::vector<Launch> launches;
};

Trace read_trace(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot open ") + path);
  trace::TraceReader reader(in);
  Trace result;
  std::map<uint64_t, size_t> launch_index;
  while (std::optional<trace::TraceItem> item = reader.next()) {
    if (auto* module = std::get_if<trace::ModuleTable>(&*item)) {
      result.sites.resize(std::max<size_t>(result.sites.size(), module->site_base + module->sites.size()));
      std::copy(module->sites.begin(), module->sites.end(), result.sites.begin() + module->site_base);
    } else if (auto* launch = std::get_if<trace::LaunchDescriptor>(&*item)) {
      launch_index[launch->launch_id] = result.launches.size();
      result.launches.push_back({*launch, {}});
    } else if (auto* chunk = std::get_if<trace::SlotChunk>(&*item)) {
      const RecordHeader* slots = chunk->slots.data();
      for (size_t position = 0; position < chunk->slots.size();) {
        const RecordHeader& h = chunk->slots[position];
        if (auto why = runtime::describe_record_defect(h)) throw std::runtime_error(*why);
        const size_t count = RecordView(h).slot_count();
        if (position + count > chunk->slots.size()) throw std::runtime_error("record cut off at the end of a chunk");
        Launch& owner = result.launches.at(launch_index.at(h.launch_id));
        Warp& warp = owner.warps[{h.block_id, h.warp_id}];
        warp.storage.emplace_back(slots + position, slots + position + count);  // outlives the chunk
        warp.records.emplace_back(warp.storage.back()[0], warp.storage.back().data() + 1);
        position += count;
      }
    }
  }
  return result;
}

class Checker {
 public:
  explicit Checker(const Trace& trace) : trace_(trace) {}

  void expect(bool condition, const std::string& what) {
    if (!condition && failures_++ < 20) std::printf("FAIL: %s\n", what.c_str());
  }
  int failures() const { return failures_; }

  const Launch* launch(const std::string& kernel_part) {
    for (const Launch& launch : trace_.launches) {
      if (launch.descriptor.kernel.find(kernel_part) != std::string::npos) return &launch;
    }
    expect(false, "no launch of " + kernel_part);
    return nullptr;
  }

  // Every warp of `launch` logged exactly `expected`, in order.
  void expect_warps(const Launch& launch, size_t warp_count, const std::vector<ExpectedRecord>& expected) {
    expect_records(launch, warp_count, expected, true);
  }
  // Every warp of `launch` began with `expected`, in order.
  void expect_warp_prefix(const Launch& launch, size_t warp_count, const std::vector<ExpectedRecord>& expected) {
    expect_records(launch, warp_count, expected, false);
  }

  // Records from `first` on are reconvergence and exit records; each kind's masks partition the warp,
  // and every lane logs its reconvergence before its exit.
  // From record `first` on: `store` once, by lanes that have not rejoined yet, and each lane's rejoin
  // then exit (lanes that skipped the store may rejoin before it is logged).
  void expect_store_then_lanes_rejoin_and_exit(const Warp& warp, size_t first, const ExpectedRecord& store) {
    uint32_t rejoined = 0, exited = 0;
    bool stored = false;
    for (size_t i = first; i < warp.records.size(); ++i) {
      const RecordHeader& h = warp.records[i].header();
      if (h.op == static_cast<uint8_t>(store.op) && !stored) {
        check_record("the store", warp.records[i], store);
        expect((rejoined & h.active_mask) == 0, "lanes store before they rejoin");
        stored = true;
      } else if (h.op == static_cast<uint8_t>(RecordOp::kBranchFi)) {
        expect((rejoined & h.active_mask) == 0 && (exited & h.active_mask) == 0, "lanes rejoin once, before they exit");
        rejoined |= h.active_mask;
      } else if (h.op == static_cast<uint8_t>(RecordOp::kWarpExit)) {
        expect((exited & h.active_mask) == 0 && (rejoined & h.active_mask) == h.active_mask, "lanes exit once, after they rejoin");
        exited |= h.active_mask;
      } else {
        expect(false, "record " + std::to_string(i) + " after the store: op " + std::to_string(h.op));
      }
    }
    expect(stored, "the store was logged");
    expect(rejoined == kFullWarp && exited == kFullWarp, "every lane rejoins and exits");
  }

 private:
  void expect_records(const Launch& launch, size_t warp_count, const std::vector<ExpectedRecord>& expected, bool exact) {
    const std::string& kernel = launch.descriptor.kernel;
    expect(launch.warps.size() == warp_count,
           kernel + ": " + std::to_string(launch.warps.size()) + " warps logged, expected " + std::to_string(warp_count));
    for (const auto& [key, warp] : launch.warps) {
      std::string where = kernel + " block " + std::to_string(key.first) + " warp " + std::to_string(key.second);
      if (exact ? warp.records.size() != expected.size() : warp.records.size() < expected.size()) {
        expect(false, where + ": " + std::to_string(warp.records.size()) + " records, expected " +
                          std::to_string(expected.size()));
        continue;
      }
      for (size_t i = 0; i < expected.size(); ++i) check_record(where + " record " + std::to_string(i), warp.records[i], expected[i]);
    }
  }

  void check_record(const std::string& where, const RecordView& record, const ExpectedRecord& e) {
    const RecordHeader& h = record.header();
    expect(h.op == static_cast<uint8_t>(e.op), where + ": op " + std::to_string(h.op) + ", expected " +
                                                   std::to_string(static_cast<int>(e.op)));
    expect(h.active_mask == e.mask, where + ": mask " + std::to_string(h.active_mask));
    if (e.line != kNoLine) {
      const trace::SiteInfo* site = h.site_id < trace_.sites.size() ? &trace_.sites[h.site_id] : nullptr;
      expect(site && site->file.ends_with("access_patterns.cu") && site->line == e.line,
             where + ": site " + std::to_string(h.site_id) + " is not access_patterns.cu:" + std::to_string(e.line));
    }
    if (is_memory_op(e.op)) {
      expect(record.address_mode() == e.mode,
             where + ": address mode " + std::to_string(static_cast<int>(record.address_mode())));
      expect(record.access_bytes() == 4, where + ": " + std::to_string(record.access_bytes()) + " bytes per lane");
      expect(record.space() == e.space, where + ": space " + std::string(memory_space_name(record.space())));
      if (e.mode == AddressMode::kAffine) {
        expect(record.affine_stride() == e.stride, where + ": stride " + std::to_string(record.affine_stride()));
      }
    }
  }

  const Trace& trace_;
  int failures_ = 0;
};

int check(const Trace& trace) {
  using Op = RecordOp;
  Checker checker(trace);
  const ExpectedRecord entry{Op::kWarpEntry}, exit{Op::kWarpExit};

  if (const Launch* launch = checker.launch("coalesced_store")) {
    checker.expect_warps(*launch, 4, {entry, {Op::kStore, kFullWarp, 7, AddressMode::kAffine, 4}, exit});
    // Warps tile the array: block b, warp w starts 4 * (64 b + 32 w) bytes after block 0 warp 0.
    if (checker.failures() == 0) {
      uint64_t origin = launch->warps.begin()->second.records[1].header().base;
      for (const auto& [key, warp] : launch->warps) {
        checker.expect(warp.records[1].header().base - origin == 4u * (64 * key.first + 32 * key.second),
                       "coalesced_store: warps tile the array");
      }
    }
  }
  if (const Launch* launch = checker.launch("shared_reverse")) {
    checker.expect_warps(*launch, 2,
                         {entry,
                          {Op::kStore, kFullWarp, 12, AddressMode::kAffine, 4, MemorySpace::kShared},
                          {Op::kBarrier, kFullWarp, 13},
                          {Op::kLoad, kFullWarp, 14, AddressMode::kAffine, -4, MemorySpace::kShared},
                          {Op::kStore, kFullWarp, 14, AddressMode::kAffine, 4},
                          exit});
    if (checker.failures() == 0) {
      for (const auto& [key, warp] : launch->warps) {
        // Lane 0 of warp w stores tile[32 w] and loads tile[63 - 32 w]: 4 * (63 - 64 w) bytes further.
        int64_t distance = static_cast<int64_t>(warp.records[3].header().base - warp.records[1].header().base);
        checker.expect(distance == 4 * (63 - 64 * static_cast<int64_t>(key.second)), "shared_reverse: load mirrors the store");
      }
    }
  }
  if (const Launch* launch = checker.launch("divergent_store")) {
    // Under independent thread scheduling the two sides need not rejoin before the reconvergence
    // point's call: each group of lanes may log it (and exit) on its own, the odd lanes even before
    // the even ones logged their store, so the tail is checked as a partition of the warp, in per-lane
    // order, not as one record.
    checker.expect_warp_prefix(*launch, 1, {entry, {Op::kBranchIf, 0xaaaaaaaau}});  // odd lanes jump over the store
    if (checker.failures() == 0) {
      const Warp& warp = launch->warps.begin()->second;
      checker.expect(warp.records[1].header().base == kFullWarp, "divergent_store: the branch names every lane that reached it");
      checker.expect_store_then_lanes_rejoin_and_exit(warp, 2, {Op::kStore, 0x55555555u, 18, AddressMode::kAffine, 4});
    }
  }
  if (const Launch* launch = checker.launch("scattered_load")) {
    checker.expect_warps(*launch, 1,
                         {entry, {Op::kLoad, kFullWarp, 23, AddressMode::kDelta32}, {Op::kStore, kFullWarp, 23, AddressMode::kAffine, 4}, exit});
    if (checker.failures() == 0) {
      const runtime::LaneAddresses lanes = runtime::lane_addresses(launch->warps.begin()->second.records[1]);
      for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
        checker.expect(lanes[lane] - lanes[0] == 4u * ((lane * lane) % 64),
                       "scattered_load: lane " + std::to_string(lane) + " reads in[(lane * lane) % 64]");
      }
    }
  }
  if (const Launch* launch = checker.launch("atomic_count")) {
    // No fence in the kernel: the legacy atomic cannot synchronise and takes no sync ticket
    // (kAccessNoSyncTicket, docs/sync_order.md).
    checker.expect_warps(*launch, 2, {entry, {Op::kAtomic, kFullWarp, 27, AddressMode::kAffine, 0}, exit});
    if (checker.failures() == 0) {
      for (const auto& [key, warp] : launch->warps) {
        checker.expect((warp.records[1].header().flags & kFlagIntraWarpConflict) != 0,
                       "atomic_count: lanes sharing one address are flagged on the GPU");
      }
    }
  }
  checker.expect(trace.launches.size() == 5, std::to_string(trace.launches.size()) + " launches, expected 5");
  if (checker.failures() == 0) std::puts("event stream as expected: 5 launches, 10 warps");
  return checker.failures() == 0 ? 0 : 1;
}

}  // namespace
}  // namespace barracuda

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: event_stream_check TRACE\n");
    return 2;
  }
  try {
    return barracuda::check(barracuda::read_trace(argv[1]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "event_stream_check: %s\n", e.what());
    return 1;
  }
}

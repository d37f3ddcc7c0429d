// The device rule against the engine on event streams recorded on the H100 (tests/traces, and the
// engine benchmark's prefixes of gemm_tiled, pathfinder, backprop, ...): every launch whose records
// only a full-block barrier synchronises (what shared_checkable_kernels.h accepts, seen from the
// records) is checked twice, by the engine on every record and by the engine on the records the
// device would send (simulate_device_shared_check). Global races and barrier divergences must be the
// same; shared races must agree as in differential_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

#include "engine/engine.h"
#include "shared_check_simulator.h"
#include "trace/trace_reader.h"

namespace barracuda::devicecheck::test {
namespace {

struct Launch {
  engine::LaunchInfo info;
  std::vector<RecordHeader> slots;  // its chunks in file order (one worker replays them)
};

std::vector<Launch> launches_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  trace::TraceReader reader(in);
  std::vector<Launch> launches;
  while (std::optional<trace::TraceItem> item = reader.next()) {
    if (const auto* launch = std::get_if<trace::LaunchDescriptor>(&*item)) {
      Launch next;
      next.info.launch_id = static_cast<uint16_t>(launch->launch_id);
      next.info.kernel = launch->kernel;
      next.info.grid = {launch->grid[0], launch->grid[1], launch->grid[2]};
      next.info.block = {launch->block[0], launch->block[1], launch->block[2]};
      next.info.shared_bytes = launch->dynamic_shared_bytes;
      launches.push_back(std::move(next));
    } else if (const auto* chunk = std::get_if<trace::SlotChunk>(&*item); chunk && !launches.empty()) {
      launches.back().slots.insert(launches.back().slots.end(), chunk->slots.begin(), chunk->slots.end());
    }
  }
  return launches;
}

// Whether nothing in the launch's records orders shared memory but full-block barriers.
bool barrier_only(const Launch& launch) {
  bool has_shared = false;
  for (size_t i = 0; i < launch.slots.size();) {
    const RecordView record(launch.slots[i], launch.slots.data() + i + 1);
    if (record.defect() != RecordDefect::kNone) return false;
    const RecordHeader& h = record.header();
    switch (record.op()) {
      case RecordOp::kBarrier:
        if (h.base != 0 || h.stride != 0) return false;
        break;
      case RecordOp::kLoad:
      case RecordOp::kStore: {
        const MemorySemantics sem = record.semantics();
        if (sem == MemorySemantics::kAcquire || sem == MemorySemantics::kRelease ||
            sem == MemorySemantics::kAcqRel || sem == MemorySemantics::kSeqCst) {
          return false;
        }
        if (record.space() == MemorySpace::kCluster) return false;
        if (record.space() == MemorySpace::kShared) {
          if (sem != MemorySemantics::kWeak || record.access_bytes() < 4) return false;
          has_shared = true;
        }
        break;
      }
      case RecordOp::kAtomic:
      case RecordOp::kReduction:
        if (record.space() != MemorySpace::kGlobal || record.semantics() != MemorySemantics::kLegacy) return false;
        break;
      case RecordOp::kWarpEntry:
      case RecordOp::kWarpExit:
      case RecordOp::kBranchIf:
      case RecordOp::kBranchElse:
      case RecordOp::kBranchFi:
      case RecordOp::kSyncTicket: break;
      default: return false;
    }
    i += record.slot_count();
  }
  return has_shared;
}

using RaceKey = std::tuple<MemorySpace, uint32_t, uint32_t, engine::RaceClass, engine::Hazard>;

struct Findings {
  std::set<RaceKey> global;
  std::set<RaceKey> shared;
  std::set<std::tuple<uint32_t, engine::Hazard>> shared_seconds;
  std::set<uint32_t> divergent_barriers;  // by site
};

Findings check(const engine::LaunchInfo& launch, std::span<const RecordHeader> slots) {
  engine::Engine engine(engine::EngineConfig{1});
  engine.begin_launch(launch);
  engine.worker(0).consume(slots);
  engine.end_launch();
  Findings findings;
  for (const engine::Race& race : engine.races()) {
    const uint32_t a = raw(race.first_site), b = raw(race.second_site);
    const RaceKey key{race.space, std::min(a, b), std::max(a, b), race.race_class, race.hazard};
    if (race.space == MemorySpace::kShared) {
      findings.shared.insert(key);
      findings.shared_seconds.insert({b, race.hazard});
    } else {
      findings.global.insert(key);
    }
  }
  // Redundant-barrier warnings are not compared: they need every access, so that option turns device
  // checking off.
  for (const engine::Diagnostic& diagnostic : engine.diagnostics()) {
    if (diagnostic.kind == engine::DiagnosticKind::kBarrierDivergence) findings.divergent_barriers.insert(raw(diagnostic.site));
  }
  return findings;
}

TEST(DeviceSharedCheck, AgreesWithTheEngineOnRecordedH100Traces) {
  uint32_t checked = 0;
  for (const char* directory : {BARRACUDA_RECORDED_TRACES_DIR, BARRACUDA_BENCHMARK_TRACES_DIR}) {
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
      if (entry.path().extension() != ".bctrace") continue;
      for (const Launch& launch : launches_of(entry.path())) {
        if (!barrier_only(launch)) continue;
        ++checked;
        const Findings host = check(launch.info, launch.slots);
        const std::vector<RecordHeader> received = simulate_device_shared_check(launch.info, launch.slots);
        const Findings device = check(launch.info, received);
        const std::string where = entry.path().filename().string() + " " + launch.info.kernel;
        EXPECT_EQ(host.global, device.global) << where;
        EXPECT_TRUE(std::includes(host.shared.begin(), host.shared.end(), device.shared.begin(), device.shared.end()))
            << where;
        EXPECT_EQ(host.shared_seconds, device.shared_seconds) << where;
        EXPECT_EQ(host.divergent_barriers, device.divergent_barriers) << where;
        std::cout << where << ": " << launch.slots.size() << " slots, " << received.size() << " received (before the device's race filter), "
                  << host.shared.size() << " shared races\n";
      }
    }
  }
  EXPECT_GE(checked, 3u) << "gemm_tiled, pathfinder and missing_barrier_raw are barrier-only";
}

}  // namespace
}  // namespace barracuda::devicecheck::test

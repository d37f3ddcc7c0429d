// Workers on their own threads share the global shadow and synchronisation locations: the racing
// site pairs must not depend on how the workers interleave.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>
#include <utility>

#include "engine/engine.h"

namespace barracuda::engine {
namespace {

constexpr uint32_t kBlocks = 64, kWarps = 4, kWorkers = 4;

// Block b writes its own 512-byte slice and reads the first word of block b+1's slice (an
// inter-block race with its neighbour); every block also bumps one counter atomically (no race).
std::vector<std::vector<RecordHeader>> make_queues() {
  std::vector<std::vector<RecordHeader>> queues(kWorkers);
  for (uint32_t b = 0; b < kBlocks; ++b) {
    for (uint32_t w = 0; w < kWarps; ++w) {
      auto add = [&](RecordOp op, uint64_t base, int32_t stride, uint32_t mask, MemorySemantics sem) {
        RecordHeader h{};
        h.op = static_cast<uint8_t>(op);
        h.space_sem = pack_space_sem(MemorySpace::kGlobal, sem, MemoryScope::kGpu);
        h.size_mode = pack_size_mode(2, AddressMode::kAffine);
        h.active_mask = mask;
        h.site_id = static_cast<uint32_t>(op) * 1000 + b;  // per-block sites: pairs name both blocks
        h.block_id = b;
        h.warp_id = static_cast<uint16_t>(w);
        h.launch_id = 9;
        h.base = base;
        h.stride = stride;
        queues[b % kWorkers].push_back(h);
      };
      const uint64_t slice = 0x10000 + uint64_t{b} * 512;
      add(RecordOp::kStore, slice + w * 128, 4, ~0u, MemorySemantics::kWeak);
      add(RecordOp::kAtomic, 0x100, 0, ~0u, MemorySemantics::kLegacy);
      if (w == 0 && b + 1 < kBlocks) add(RecordOp::kLoad, slice + 512, 0, 1u, MemorySemantics::kWeak);
    }
  }
  return queues;
}

std::set<std::pair<uint32_t, uint32_t>> racing_pairs(bool threads) {
  const auto queues = make_queues();
  Engine engine(EngineConfig{kWorkers});
  LaunchInfo launch;
  launch.launch_id = 9;
  launch.grid = {kBlocks, 1, 1};
  launch.block = {kWarps * 32, 1, 1};
  engine.begin_launch(launch);
  if (threads) {
    std::vector<std::thread> workers;
    for (uint32_t q = 0; q < kWorkers; ++q) workers.emplace_back([&, q] { engine.worker(q).consume(queues[q]); });
    for (std::thread& t : workers) t.join();
  } else {
    for (uint32_t q = 0; q < kWorkers; ++q) engine.worker(q).consume(queues[q]);
  }
  engine.end_launch();
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  for (const Race& r : engine.races()) {
    EXPECT_EQ(r.race_class, RaceClass::kInterBlock);
    const uint32_t a = raw(r.first_site), b = raw(r.second_site);
    pairs.insert({std::min(a, b), std::max(a, b)});
  }
  return pairs;
}

TEST(ConcurrentWorkers, RacesDoNotDependOnInterleaving) {
  const auto sequential = racing_pairs(false);
  EXPECT_EQ(sequential.size(), kBlocks - 1);  // each block's load with its neighbour's store
  for (int round = 0; round < 5; ++round) EXPECT_EQ(racing_pairs(true), sequential) << "round " << round;
}

}  // namespace
}  // namespace barracuda::engine

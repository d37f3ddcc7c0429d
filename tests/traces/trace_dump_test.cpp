// `barracuda replay --dump`: records decoded one per line, per-lane addresses included.
#include "cli/trace_dump.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

namespace barracuda::cli {
namespace {

RecordHeader header(RecordOp op, uint32_t mask) {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(op);
  h.active_mask = mask;
  h.site_id = 9;
  h.block_id = 3;
  h.warp_id = 1;
  h.launch_id = 2;
  return h;
}

std::string printed(const RecordHeader& h, const RecordHeader* payload = nullptr) {
  std::ostringstream out;
  print_record(out, h, payload);
  return out.str();
}

TEST(TraceDump, AffineAccessShowsSpaceSemanticsScopeAndStride) {
  RecordHeader h = header(RecordOp::kStore, 0xffffffff);
  h.space_sem = pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kRelease, MemoryScope::kGpu);
  h.size_mode = pack_size_mode(2, AddressMode::kAffine);
  h.flags = kFlagSameValue;
  h.base = 0x7f0000001000;
  h.stride = 4;
  EXPECT_EQ(printed(h), "launch 2 block 3 warp 1 site 9 store mask 0xffffffff global release.gpu 4B flags 0x1 "
                        "base 0x7f0000001000 stride 4\n");
}

TEST(TraceDump, Delta32AccessListsEveryActiveLane) {
  RecordHeader h = header(RecordOp::kLoad, 0b101);
  h.space_sem = pack_space_sem(MemorySpace::kShared, MemorySemantics::kWeak, MemoryScope::kCta);
  h.size_mode = pack_size_mode(3, AddressMode::kDelta32);
  h.base = 0x400;
  RecordHeader payload[4]{};
  const int32_t deltas[3] = {0x20, 0, -0x10};
  std::memcpy(payload, deltas, sizeof deltas);
  EXPECT_EQ(printed(h, payload), "launch 2 block 3 warp 1 site 9 load mask 0x5 shared weak.cta 8B flags 0 0:0x420 2:0x3f0\n");
}

TEST(TraceDump, SynchronisationShowsItsPayload) {
  RecordHeader bar = header(RecordOp::kBarrier, 0xffffffff);
  bar.base = 1;
  bar.stride = 64;
  EXPECT_EQ(printed(bar), "launch 2 block 3 warp 1 site 9 barrier mask 0xffffffff payload 0x1 count 64\n");
  RecordHeader fence = header(RecordOp::kFence, 0x1);
  fence.space_sem = pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kLegacy, MemoryScope::kCta);
  EXPECT_EQ(printed(fence), "launch 2 block 3 warp 1 site 9 fence mask 0x1 legacy.cta\n");
  RecordHeader unknown = header(static_cast<RecordOp>(77), 0x1);
  EXPECT_NE(printed(unknown).find(" op77 "), std::string::npos);
}

TEST(TraceDump, DeviceRaceShowsTheWordTheHazardAndTheFirstAccess) {
  RecordHeader race = header(RecordOp::kSharedRace, 0x10);
  race.stride = 7;
  race.base = pack_shared_race_base({0x40, 33, 7, Hazard::kWriteAfterWrite, true, 1});
  EXPECT_EQ(printed(race),
            "launch 2 block 3 warp 1 site 9 shared-race mask 0x10 offset 0x40 WAW first site 7 thread 33 same value 1\n");
}

}  // namespace
}  // namespace barracuda::cli

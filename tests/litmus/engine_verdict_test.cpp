// The detector column without a GPU: each litmus cell's run, scripted as the records its instrumented
// kernel logs (the engine scenario harness, tests/engine/scenario.h), goes through the race engine,
// whose verdict must be model.h's expected_detector_verdict. The records are scripted in the order of
// the synchronising execution (MP's writer before its reader, which saw the flag), as the GPU run with
// --detector-cell produces them; only the litmus locations are scripted, so any race is on them.
#include <gtest/gtest.h>

#include "cell.h"
#include "placement.h"
#include "scenario.h"

namespace litmus {
namespace {

namespace engine = barracuda::engine;
using barracuda::MemoryScope;
using barracuda::MemorySemantics;
using engine::test::AccessOptions;
using engine::test::lane;
using engine::test::Scenario;

constexpr uint64_t kX = 0x10000;
constexpr uint64_t kY = 0x10080;  // the next 128-byte line, as --detector-cell places it

// How the instrumentation logs each access kind of access.cuh.
struct Logged {
  bool atomic;
  AccessOptions load, store;
};

Logged logged(Access a) {
  auto opts = [](MemorySemantics sem, MemoryScope scope) { return AccessOptions{.sem = sem, .scope = scope}; };
  switch (a) {
    case Access::kWeak: return {false, {}, {}};
    case Access::kVolatile:
      return {false, opts(MemorySemantics::kVolatile, MemoryScope::kSystem),
              opts(MemorySemantics::kVolatile, MemoryScope::kSystem)};
    case Access::kRelaxedGpu:
      return {false, opts(MemorySemantics::kRelaxed, MemoryScope::kGpu), opts(MemorySemantics::kRelaxed, MemoryScope::kGpu)};
    case Access::kRelAcqGpu:
      return {false, opts(MemorySemantics::kAcquire, MemoryScope::kGpu), opts(MemorySemantics::kRelease, MemoryScope::kGpu)};
    case Access::kRelAcqCta:
      return {false, opts(MemorySemantics::kAcquire, MemoryScope::kCta), opts(MemorySemantics::kRelease, MemoryScope::kCta)};
    case Access::kAtomicRelaxed:
      return {true, opts(MemorySemantics::kRelaxed, MemoryScope::kGpu), opts(MemorySemantics::kRelaxed, MemoryScope::kGpu)};
  }
  return {false, {}, {}};
}

// One litmus thread: the warp script of its (block, warp) restricted to its lane. Stride 0: the harness
// gives lane i the address base + i * stride, and every litmus access of a lane is to base itself.
class Thread {
 public:
  Thread(Scenario& s, const Cell& c, int role) : s_(s), fence_(c.litmus_variant().fence) {
    Geometry g{4, 4 * kLanes};
    Assignment a = fixed_roles(c.litmus_test(), c.placement, g);
    for (int t = 0; t < g.threads(); ++t) {
      if (a.role_of_thread[t] == role) {
        block_ = static_cast<uint32_t>(t / g.threads_per_block);
        warp_ = static_cast<uint32_t>(t % g.threads_per_block / kLanes);
        lane_ = static_cast<uint32_t>(t % kLanes);
      }
    }
  }
  // `spin`: a load of roles.cuh's wait loop, whose value decides whether the loop goes on: the
  // instrumentation marks a volatile one a spin read (kFlagSpinRead).
  engine::SiteId load(Access a, uint64_t address, bool spin = false) { return access(a, address, false, spin); }
  engine::SiteId store(Access a, uint64_t address) { return access(a, address, true); }
  // The fence `barracuda harden` proposes: fence.acq_rel of `scope`.
  void hardening_fence(MemoryScope scope) { emit_fence(MemorySemantics::kAcqRel, scope); }
  uint32_t block() const { return block_; }
  void fence() {
    switch (fence_) {
      case Fence::kNone: return;
      case Fence::kMembarCta: emit_fence(MemorySemantics::kLegacy, MemoryScope::kCta); return;
      case Fence::kMembarGl: emit_fence(MemorySemantics::kLegacy, MemoryScope::kGpu); return;
      case Fence::kAcqRelCta: emit_fence(MemorySemantics::kAcqRel, MemoryScope::kCta); return;
      case Fence::kAcqRelGpu: emit_fence(MemorySemantics::kAcqRel, MemoryScope::kGpu); return;
      case Fence::kScCta: emit_fence(MemorySemantics::kSeqCst, MemoryScope::kCta); return;
      case Fence::kScGpu: emit_fence(MemorySemantics::kSeqCst, MemoryScope::kGpu); return;
    }
  }

 private:
  engine::SiteId access(Access a, uint64_t address, bool write, bool spin = false) {
    Logged l = logged(a);
    AccessOptions o = write ? l.store : l.load;
    if (spin && o.sem == MemorySemantics::kVolatile) o.flags = barracuda::kFlagSpinRead;
    auto warp = s_.warp(block_, warp_);
    if (l.atomic) return warp.atomic(lane(lane_), address, 0, o);
    if (write) return warp.store(lane(lane_), address, 0, o);
    return warp.load(lane(lane_), address, 0, o);
  }
  void emit_fence(MemorySemantics sem, MemoryScope scope) { s_.warp(block_, warp_).fence(sem, scope, lane(lane_)); }

  Scenario& s_;
  Fence fence_;
  uint32_t block_ = 0, warp_ = 0, lane_ = 0;
};

// Scripts the cell as roles.cuh runs it and returns the engine's verdict.
Verdict engine_verdict(const Cell& c) {
  Scenario s(engine::Dim3{4, 1, 1}, engine::Dim3{4 * kLanes, 1, 1});
  const Variant& v = c.litmus_variant();
  std::vector<Thread> t;
  for (int role = 0; role < thread_count(c.litmus_test()); ++role) t.emplace_back(s, c, role);
  switch (c.litmus_test()) {
    case LitmusTest::kMP:
      // The wait for the flag (roles.cuh): its first load, the rotated loop's test before the loop,
      // still saw it unset, a load of the loop saw it set; the instrumentation marks both spin reads.
      t[1].load(v.sync, kY, true);
      t[0].store(v.data, kX), t[0].fence(), t[0].store(v.sync, kY);
      t[1].load(v.sync, kY, true), t[1].fence(), t[1].load(v.data, kX);
      break;
    case LitmusTest::kSB:
      t[0].store(v.sync, kX), t[0].fence(), t[0].load(v.sync, kY);
      t[1].store(v.sync, kY), t[1].fence(), t[1].load(v.sync, kX);
      break;
    case LitmusTest::kLB:
      t[0].load(v.sync, kX), t[0].fence(), t[0].store(v.sync, kY);
      t[1].load(v.sync, kY), t[1].fence(), t[1].store(v.sync, kX);
      break;
    case LitmusTest::kIRIW:
      t[0].store(v.sync, kX);
      t[1].store(v.sync, kY);
      t[2].load(v.sync, kX), t[2].fence(), t[2].load(v.sync, kY);
      t[3].load(v.sync, kY), t[3].fence(), t[3].load(v.sync, kX);
      break;
    case LitmusTest::kCoRR:
      t[0].store(v.sync, kX);
      t[1].load(v.sync, kX), t[1].fence(), t[1].load(v.sync, kX);
      break;
  }
  s.run();
  return s.races().empty() ? Verdict::kNoRace : Verdict::kRace;
}

TEST(LitmusEngineVerdict, EveryCellGetsTheVerdictTheModelExpects) {
  for (const Cell& c : all_cells()) {
    Verdict expected = expected_detector_verdict(c.litmus_test(), c.litmus_variant(), c.placement);
    EXPECT_EQ(verdict_name(engine_verdict(c)), verdict_name(expected)) << cell_name(c);
  }
}

// MP with a relaxed, volatile or atomic flag and no fence (the no-fence, volatile and atomic-relaxed
// variants): the payload's race names the flag, whichever of writer and reader the engine sees first
// (kernels without a fence give the flag no sync ticket), and the cell scripted with the two fences
// `barracuda harden` then proposes (before the flag's store, after its load, of the scope covering both
// threads) is race-free: the "hardened" column's verdict, without a GPU.
TEST(LitmusEngineVerdict, UnfencedMessagePassingNamesItsFlagAndIsRaceFreeHardened) {
  int cells = 0;
  for (const Cell& c : all_cells()) {
    const Variant& v = c.litmus_variant();
    if (c.litmus_test() != LitmusTest::kMP || v.fence != Fence::kNone || v.sync == Access::kWeak ||
        v.sync == Access::kRelAcqGpu || v.sync == Access::kRelAcqCta) {
      continue;
    }
    ++cells;
    for (bool reader_first : {false, true}) {
      for (bool hardened : {false, true}) {
        Scenario s(engine::Dim3{4, 1, 1}, engine::Dim3{4 * kLanes, 1, 1});
        Thread writer(s, c, 0), reader(s, c, 1);
        const MemoryScope covering = writer.block() == reader.block() ? MemoryScope::kCta : MemoryScope::kGpu;
        const auto write_side = [&] {
          const engine::SiteId data = writer.store(v.data, kX);
          if (hardened) writer.hardening_fence(covering);
          return std::pair{data, writer.store(v.sync, kY)};
        };
        const auto read_side = [&] {
          reader.load(v.sync, kY, true);
          const engine::SiteId flag = reader.load(v.sync, kY, true);
          if (hardened) reader.hardening_fence(covering);
          return std::pair{flag, reader.load(v.data, kX)};
        };
        std::pair<engine::SiteId, engine::SiteId> w, r;
        if (reader_first) {
          r = read_side(), w = write_side();
        } else {
          w = write_side(), r = read_side();
        }
        s.run();
        const std::string what = cell_name(c) + (reader_first ? ", reader first" : ", writer first");
        if (hardened) {
          if (!reader_first) {
            EXPECT_TRUE(s.races().empty()) << what << ", hardened";
          }
          continue;  // reader first, the engine cannot order the hand-off (docs/engine.md)
        }
        const auto race = s.race(w.first, r.second);
        ASSERT_TRUE(race) << what;
        ASSERT_TRUE(race->flag.valid) << what;
        EXPECT_EQ(race->flag.write_site, w.second) << what;
        EXPECT_EQ(race->flag.read_site, r.first) << what;
        EXPECT_EQ(race->flag.address, kY) << what;
      }
    }
  }
  EXPECT_EQ(cells, 9);  // 3 variants x 3 placements
}

}  // namespace
}  // namespace litmus

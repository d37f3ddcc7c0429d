#include "random_trace.h"

#include <algorithm>
#include <random>

namespace barracuda::engine::test {
namespace {

struct WarpPlan {
  uint32_t block, warp;
  uint32_t live;        // lanes that exist
  uint32_t path;        // lanes on the current branch path
  uint32_t branch = 0;  // 0 none, 1 in the "if" side, 2 in the "else" side
  uint32_t taken = 0;   // lanes of the "if" side
  bool waiting = false;
  bool exited = false;
};

class Generator {
 public:
  // The spin-read flag has its own generator: traces of a seed keep the records they had before it.
  explicit Generator(uint64_t seed) : rng_(seed), spin_rng_(seed ^ 0x5b1f'1a6e'0000'0000ull) {}

  RandomTrace run() {
    RandomTrace trace;
    LaunchInfo& launch = trace.launch;
    launch.launch_id = 3;
    launch.kernel = "random";
    launch.grid = {pick(1, 3), 1, 1};
    const uint32_t warps = pick(1, 2);
    launch.block = {32 * (warps - 1) + 4, 1, 1};
    if (chance(30)) launch.cluster = {2, 1, 1};
    launch.warp_model = chance(25) ? WarpModel::kLockstep : WarpModel::kIndependent;
    for (uint32_t b = 0; b < launch.grid.x; ++b) {
      for (uint32_t w = 0; w < warps; ++w) {
        const uint32_t live = w + 1 < warps ? ~0u : 0xFu;
        plans_.push_back({b, w, live, live});
      }
    }
    const uint32_t steps = pick(10, 60);
    for (uint32_t i = 0; i < steps; ++i) {
      std::vector<WarpPlan*> ready;
      for (WarpPlan& p : plans_) {
        if (!p.exited && !p.waiting) ready.push_back(&p);
      }
      if (ready.empty()) break;
      step(*ready[pick(0, static_cast<uint32_t>(ready.size() - 1))], trace.records);
    }
    if (chance(50)) {
      for (WarpPlan& p : plans_) {
        if (!p.exited) emit(p, RecordOp::kWarpExit, p.live, trace.records);
      }
    }
    return trace;
  }

 private:
  uint32_t pick(uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng_); }
  bool chance(uint32_t percent) { return pick(1, 100) <= percent; }
  template <typename T>
  T one_of(std::initializer_list<T> options) {
    return *(options.begin() + pick(0, static_cast<uint32_t>(options.size() - 1)));
  }
  uint32_t subset(uint32_t lanes) {
    uint32_t mask = 0;
    while (mask == 0) mask = lanes & pick(1, 15);
    return mask;
  }

  RecordHeader& emit(WarpPlan& p, RecordOp op, uint32_t mask, std::vector<RecordHeader>& out) {
    RecordHeader h{};
    h.op = static_cast<uint8_t>(op);
    h.active_mask = mask;
    h.site_id = next_site_++;
    h.block_id = p.block;
    h.warp_id = static_cast<uint16_t>(p.warp);
    h.launch_id = 3;
    if (op == RecordOp::kWarpExit) p.exited = true;
    out.push_back(h);
    release_waiting(p.block);
    return out.back();
  }

  // A barrier lets its block go once every warp that has not exited waits at it.
  void release_waiting(uint32_t block) {
    bool all = true;
    for (const WarpPlan& p : plans_) {
      if (p.block == block && !p.exited && !p.waiting) all = false;
    }
    if (!all) return;
    for (WarpPlan& p : plans_) {
      if (p.block == block) p.waiting = false;
    }
  }

  void memory(WarpPlan& p, std::vector<RecordHeader>& out) {
    const auto op = one_of({RecordOp::kLoad, RecordOp::kLoad, RecordOp::kStore, RecordOp::kStore, RecordOp::kAtomic,
                            RecordOp::kReduction});
    MemorySemantics sem = MemorySemantics::kWeak;
    if (op == RecordOp::kLoad && chance(50)) {
      sem = one_of({MemorySemantics::kRelaxed, MemorySemantics::kAcquire, MemorySemantics::kVolatile});
    } else if (op == RecordOp::kStore && chance(50)) {
      sem = one_of({MemorySemantics::kRelaxed, MemorySemantics::kRelease, MemorySemantics::kVolatile});
    } else if (op == RecordOp::kAtomic) {
      sem = one_of({MemorySemantics::kLegacy, MemorySemantics::kRelaxed, MemorySemantics::kAcqRel,
                    MemorySemantics::kAcquire, MemorySemantics::kRelease});
    } else if (op == RecordOp::kReduction) {
      sem = one_of({MemorySemantics::kLegacy, MemorySemantics::kRelaxed, MemorySemantics::kRelease});
    }
    const auto scope = one_of({MemoryScope::kCta, MemoryScope::kCluster, MemoryScope::kGpu, MemoryScope::kSystem});
    const uint32_t roll = pick(1, 100);
    const MemorySpace space = roll <= 75 ? MemorySpace::kGlobal : roll <= 95 ? MemorySpace::kShared : MemorySpace::kOther;
    RecordHeader& h = emit(p, op, subset(p.path & 0xFu), out);
    h.space_sem = pack_space_sem(space, sem, scope);
    h.size_mode = pack_size_mode(one_of({2u, 2u, 2u, 0u, 1u, 3u}), AddressMode::kAffine);
    h.stride = one_of({0, 0, 4, 4, 1, 2, 8});
    h.base = one_of({0x100ull, 0x100ull, 0x104ull, 0x108ull, 0x102ull, 0x200ull});
    if (op == RecordOp::kStore && chance(15)) h.flags = kFlagSameValue;
    // Half the volatile loads are spin reads (and, rarely, the flag on another load, which must not count).
    if ((op == RecordOp::kLoad && sem == MemorySemantics::kVolatile) ? spin_rng_() % 2 == 0 : spin_rng_() % 50 == 0) {
      h.flags |= kFlagSpinRead;
    }
  }

  void step(WarpPlan& p, std::vector<RecordHeader>& out) {
    const uint32_t roll = pick(1, 100);
    if (roll <= 55) {
      memory(p, out);
    } else if (roll <= 67) {
      const auto sem = one_of({MemorySemantics::kLegacy, MemorySemantics::kSeqCst, MemorySemantics::kAcqRel,
                               MemorySemantics::kAcquire, MemorySemantics::kRelease});
      const auto scope = one_of({MemoryScope::kCta, MemoryScope::kCluster, MemoryScope::kGpu});
      RecordHeader& h = emit(p, RecordOp::kFence, subset(p.path & 0xFu), out);
      h.space_sem = pack_space_sem(MemorySpace::kGlobal, sem, scope);
    } else if (roll <= 74) {
      const uint32_t members = chance(50) ? p.live : subset(p.live & 0xFu);
      emit(p, RecordOp::kWarpSync, members, out).base = members;
    } else if (roll <= 84) {
      // Normally every lane arrives and the warp waits; sometimes only some lanes do (divergence).
      const bool partial = chance(10);
      p.waiting = !partial;
      emit(p, RecordOp::kBarrier, partial ? subset(p.live & 0xFu) : p.live, out);
    } else if (roll <= 97) {
      branch(p, out);
    } else {
      emit(p, RecordOp::kWarpExit, p.live, out);
    }
  }

  void branch(WarpPlan& p, std::vector<RecordHeader>& out) {
    if (p.branch == 0) {
      p.taken = subset(p.live & 0xFu);
      emit(p, RecordOp::kBranchIf, p.taken, out).base = p.live;
      p.path = p.taken;
      p.branch = 1;
    } else if (p.branch == 1 && (p.live & 0xFu & ~p.taken)) {
      p.path = p.live & ~p.taken;
      emit(p, RecordOp::kBranchElse, p.path, out);
      p.branch = 2;
    } else {
      p.path = p.live;
      emit(p, RecordOp::kBranchFi, p.live, out);
      p.branch = 0;
    }
  }

  std::mt19937_64 rng_;
  std::mt19937_64 spin_rng_;
  std::vector<WarpPlan> plans_;
  uint32_t next_site_ = 1;
};

}  // namespace

RandomTrace make_random_trace(uint64_t seed) { return Generator(seed).run(); }

}  // namespace barracuda::engine::test

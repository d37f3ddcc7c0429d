#include "barrier_only_trace.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <random>

namespace barracuda::devicecheck::test {
namespace {

constexpr uint32_t kBarrierSite = 100;
constexpr uint32_t kEntrySite = 101;
constexpr uint32_t kExitSite = 102;
constexpr uint32_t kWords = 8;  // few words: accesses meet often

struct Site {
  RecordOp op;         // load, store, atomic or reduction
  uint32_t size_log2;  // 2, 3 or 4 (atomics: 2 or 3)
  MemoryScope scope;   // of an atomic: .cta or the default .gpu
  bool strong = false;  // global memory: an atomic or a relaxed load
};

class Generator {
 public:
  Generator(uint64_t seed, MemorySpace space) : rng_(seed), space_(space) {}

  BarrierOnlyTrace run() {
    BarrierOnlyTrace trace;
    engine::LaunchInfo& launch = trace.launch;
    launch.launch_id = 7;
    launch.kernel = "barrier_only";
    const bool global = space_ == MemorySpace::kGlobal;
    launch.grid = {pick(1, global ? 3 : 2), 1, 1};
    launch.block = {pick(1, 96), 1, 1};
    launch.shared_bytes = kWords * 4 + 8;
    const uint32_t site_count = pick(2, 8);
    for (uint32_t s = 0; s < site_count; ++s) {
      const uint32_t kind = pick(1, 100);
      if (global && kind <= 30) {  // atomics of .gpu or .sys scope, and relaxed loads of those scopes
        const RecordOp op = kind <= 12 ? RecordOp::kAtomic : kind <= 18 ? RecordOp::kReduction : RecordOp::kLoad;
        sites_.push_back({op, chance(75) ? 2u : 3u, chance(75) ? MemoryScope::kGpu : MemoryScope::kSystem, true});
      } else if (global) {
        const RecordOp op = kind <= 65 ? RecordOp::kStore : RecordOp::kLoad;
        sites_.push_back({op, op == RecordOp::kLoad && chance(20) ? pick(0, 1) : chance(75) ? 2u : pick(3, 4),
                          MemoryScope::kCta});
      } else if (kind <= 20) {  // shared atomics: atomicAdd (kAtomic) or a reduction whose result is unused
        sites_.push_back({kind <= 15 ? RecordOp::kAtomic : RecordOp::kReduction, chance(75) ? 2u : 3u,
                          chance(50) ? MemoryScope::kCta : MemoryScope::kGpu});
      } else {
        sites_.push_back({kind <= 60 ? RecordOp::kStore : RecordOp::kLoad, chance(75) ? 2u : pick(3, 4), MemoryScope::kCta});
      }
    }
    for (uint32_t block = 0; block < launch.grid.x; ++block) emit_block(launch, block, trace.slots);
    return trace;
  }

 private:
  uint32_t pick(uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng_); }
  bool chance(uint32_t percent) { return pick(1, 100) <= percent; }

  RecordHeader header(RecordOp op, uint32_t block, uint32_t warp, uint32_t mask, uint32_t site) const {
    return trace_header(op, block, warp, mask, site, 7);
  }

  // One warp's execution of a random site: lanes, addresses, values, flags as the device sets them.
  void emit_access(uint32_t block, uint32_t warp, uint32_t live, std::vector<RecordHeader>& out) {
    const uint32_t site = pick(0, static_cast<uint32_t>(sites_.size() - 1));
    const Site& shape = sites_[site];
    uint32_t mask = 0;
    while (mask == 0) mask = chance(40) ? live : static_cast<uint32_t>(rng_()) & live;
    const uint32_t bytes = 1u << shape.size_log2;
    const uint32_t slots_of_size = (kWords * 4) / bytes;
    std::array<uint64_t, 32> address{};
    std::array<uint32_t, 32> value{};
    const uint32_t pattern = pick(0, 2);  // one address, consecutive, random per lane
    const uint32_t first = pick(0, slots_of_size - 1);
    const bool one_value = chance(50);
    const uint32_t shared_value = pick(1, 2);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t slot = pattern == 0 ? first : pattern == 1 ? (first + lane) % slots_of_size
                                                                : pick(0, slots_of_size - 1);
      address[lane] = (space_ == MemorySpace::kGlobal ? kGlobalTraceBase : 0) + uint64_t{slot} * bytes;
      value[lane] = one_value ? shared_value : pick(1, 2);
    }
    RecordHeader h = header(shape.op, block, warp, mask, site + 1);
    const bool atomic = shape.op == RecordOp::kAtomic || shape.op == RecordOp::kReduction;
    // An atomic without .sem (atomicAdd) or with .relaxed, as the instrumentation logs atom/red.shared.
    const MemorySemantics atomic_semantics = site % 2 == 0 ? MemorySemantics::kLegacy : MemorySemantics::kRelaxed;
    const MemorySemantics semantics = atomic                         ? atomic_semantics
                                      : shape.strong                 ? MemorySemantics::kRelaxed
                                                                     : MemorySemantics::kWeak;
    h.space_sem = pack_space_sem(space_, semantics, shape.scope);
    const uint32_t leader = static_cast<uint32_t>(__builtin_ctz(mask));
    bool affine = true;
    int64_t stride = 0;
    if (mask != (1u << leader)) {
      const uint32_t second = static_cast<uint32_t>(__builtin_ctz(mask & ~(1u << leader)));
      stride = (static_cast<int64_t>(address[second]) - static_cast<int64_t>(address[leader])) /
               static_cast<int64_t>(second - leader);
    }
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(m));
      affine = affine && static_cast<int64_t>(address[lane]) ==
                             static_cast<int64_t>(address[leader]) + stride * (static_cast<int64_t>(lane) - leader);
    }
    h.size_mode = pack_size_mode(shape.size_log2, affine ? AddressMode::kAffine : AddressMode::kDelta32);
    if (shape.op == RecordOp::kStore) {
      // Lanes sharing an address stored one value (the device's match.any test).
      bool same_value = true;
      bool one_stored = true;
      for (uint32_t a = mask; a; a &= a - 1) {
        for (uint32_t b = mask; b; b &= b - 1) {
          const uint32_t i = static_cast<uint32_t>(__builtin_ctz(a)), j = static_cast<uint32_t>(__builtin_ctz(b));
          if (address[i] == address[j] && value[i] != value[j]) same_value = false;
          if (value[i] != value[j]) one_stored = false;
        }
      }
      if (same_value) h.flags |= kFlagSameValue;
      if (affine && stride == 0 && same_value && one_stored && bytes <= 4) {
        h.flags |= kFlagUniformValue;
        h.stride = static_cast<int32_t>(value[leader]);
        h.base = address[leader];
        out.push_back(h);
        return;
      }
    }
    if (affine) {
      h.stride = static_cast<int32_t>(stride);
      h.base = address[leader] - static_cast<uint64_t>(stride * leader);
      out.push_back(h);
      return;
    }
    h.base = address[leader];
    out.push_back(h);
    std::array<int32_t, 32> deltas{};
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(m));
      deltas[lane] = static_cast<int32_t>(address[lane] - address[leader]);
    }
    std::array<RecordHeader, 4> payload{};
    std::memcpy(payload.data(), deltas.data(), sizeof deltas);
    out.insert(out.end(), payload.begin(), payload.end());
  }

  // Barrier intervals one after the other; within one, the warps' accesses interleave at random and
  // each warp's barrier record follows its own accesses.
  void emit_block(const engine::LaunchInfo& launch, uint32_t block, std::vector<RecordHeader>& out) {
    const uint32_t warps = launch.warps_per_block();
    std::vector<uint32_t> live(warps);
    for (uint32_t w = 0; w < warps; ++w) {
      const uint32_t lanes = std::min<uint32_t>(32, launch.block.x - w * 32);
      live[w] = lanes == 32 ? ~0u : (1u << lanes) - 1;
      out.push_back(header(RecordOp::kWarpEntry, block, w, live[w], kEntrySite));
    }
    const uint32_t intervals = pick(1, 4);
    for (uint32_t interval = 0; interval < intervals; ++interval) {
      std::vector<uint32_t> left(warps);
      for (uint32_t& n : left) n = pick(0, 5);
      std::vector<bool> arrived(warps, interval + 1 == intervals);
      for (;;) {
        std::vector<uint32_t> ready;
        for (uint32_t w = 0; w < warps; ++w) {
          if (left[w] > 0 || !arrived[w]) ready.push_back(w);
        }
        if (ready.empty()) break;
        const uint32_t w = ready[pick(0, static_cast<uint32_t>(ready.size() - 1))];
        if (left[w] > 0) {
          emit_access(block, w, live[w], out);
          --left[w];
        } else {
          out.push_back(header(RecordOp::kBarrier, block, w, live[w], kBarrierSite));
          arrived[w] = true;
        }
      }
    }
    for (uint32_t w = 0; w < warps; ++w) out.push_back(header(RecordOp::kWarpExit, block, w, live[w], kExitSite));
  }

  std::mt19937_64 rng_;
  MemorySpace space_;
  std::vector<Site> sites_;
};

}  // namespace

RecordHeader trace_header(RecordOp op, uint32_t block, uint32_t warp, uint32_t mask, uint32_t site, uint16_t launch_id) {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(op);
  h.active_mask = mask;
  h.site_id = site;
  h.block_id = block;
  h.warp_id = static_cast<uint16_t>(warp);
  h.launch_id = launch_id;
  return h;
}

BarrierOnlyTrace make_barrier_only_trace(uint64_t seed, MemorySpace space) { return Generator(seed, space).run(); }

std::unique_ptr<engine::Engine> checked_by_engine(const engine::LaunchInfo& launch, std::span<const RecordHeader> slots) {
  auto engine = std::make_unique<engine::Engine>(engine::EngineConfig{1});
  engine->begin_launch(launch);
  engine->worker(0).consume(slots);
  engine->end_launch();
  return engine;
}

}  // namespace barracuda::devicecheck::test

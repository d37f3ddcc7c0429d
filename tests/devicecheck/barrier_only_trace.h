#pragma once
// Random, seeded launches of the one kind the device checks on its own: blocks whose warps access
// shared memory with plain loads and stores (4, 8 or 16 bytes, a handful of overlapping words, lanes
// sharing addresses, stores of one value or several) and atomics without ordering semantics (4 or 8
// bytes, .cta or .gpu scope), and synchronise only with full-block barriers. In global memory
// (kGlobalTraceBase on), up to three blocks, loads of 1 or 2 bytes too, and atomics and relaxed loads
// of .gpu or .sys scope (the kinds global_checkable_kernels.h lets through).
// Sites are instructions: each site keeps its op and size, and every warp may execute it.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "barracuda/record.h"
#include "engine/engine.h"
#include "engine/launch.h"

namespace barracuda::devicecheck::test {

struct BarrierOnlyTrace {
  engine::LaunchInfo launch;
  // Whole records in the order the GPU would log them: headers, and kDelta32 payload slots.
  std::vector<RecordHeader> slots;
};

inline constexpr uint64_t kGlobalTraceBase = 0x7f0000001000;

// A record header of launch `launch_id` with nothing else set.
RecordHeader trace_header(RecordOp op, uint32_t block, uint32_t warp, uint32_t mask, uint32_t site, uint16_t launch_id);

BarrierOnlyTrace make_barrier_only_trace(uint64_t seed, MemorySpace space = MemorySpace::kShared);

// An engine of one worker that has checked `slots` as the one launch `launch` (ended): the host's
// verdict the device-side rules are held to.
std::unique_ptr<engine::Engine> checked_by_engine(const engine::LaunchInfo& launch, std::span<const RecordHeader> slots);

}  // namespace barracuda::devicecheck::test

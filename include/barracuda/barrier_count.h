#pragma once
// Block barriers counted on the GPU instead of logged (LaunchSlot flag kLaunchCountsBarriers): the
// rule the device runtime applies at each `bar.sync 0` and each warp exit of such a launch, written
// once for the device (device/barrier_counter.cuh) and the host tests that hold it to the engine's
// barrier-divergence verdicts (tests/devicecheck/barrier_count_test.cpp).
//
// In a launch whose accesses the device checks (barrier-only kernels, docs/device_global_check.md),
// a barrier record per warp and barrier was most of what reached the host (pathfinder at --scale 0.1:
// 353 M of them, and no access). There the device counts each thread's barriers (it does already, for
// its checks) and keeps, per block, one word: how many barriers the block completed, how many live
// threads wait at the next, and how many threads are live. The host then receives
//   - kBarriersPassed before a warp's first record in each barrier interval that the engine orders
//     (an access the device did not check): the engine completes the block's barriers up to that
//     count (engine/worker.cpp), which is what the barrier records would have done, since no record of
//     the block came between them;
//   - kBarrierDivergence where the engine would have reported a barrier divergence from the barrier
//     and exit records (worker.cpp: apply_exit, settle_barrier), with the same barrier named.
#include <stdint.h>

#if defined(__CUDACC__)
#define BARRACUDA_BARRIER_COUNT_HD __host__ __device__
#else
#define BARRACUDA_BARRIER_COUNT_HD
#endif

namespace barracuda {

// What the instrumentation tells __barracuda_log_block_event (runtime_entry_points.inc), in kernels whose
// global memory the device may check: a warp's lanes arrive at a block barrier, are just past one, or
// exit.
enum class BlockEvent : uint32_t { kArrive = 0, kPass = 1, kExit = 2 };

// Why a kBarrierDivergence record was sent (its `base`), in the engine's words.
enum class BarrierDivergence : uint8_t {
  kNone = 0,
  // Lanes that arrived at the pending barrier went on (arrived at the next one, or exited) before
  // every live thread arrived: "the barrier let threads through before every live thread arrived".
  kLetThrough = 1,
  // Lanes exited without arriving while other threads waited at the barrier.
  kExitedWhileWaiting = 2,
};

// A block's barrier state: the barriers it completed (modulo 2^kCompletedBits: the rule compares a
// thread's count with it, never two counts far apart), the live threads waiting at the next barrier,
// the threads that have not exited. Packed with the launch's tag into one 64-bit word, updated with
// compare-and-swap; a word of another tag is the block's start: nothing completed, nobody waiting,
// every thread live.
struct BlockBarrierState {
  uint32_t completed = 0;
  uint32_t waiting = 0;
  uint32_t live = 0;
};

inline constexpr uint32_t kBarrierCountTagBits = 16;
inline constexpr uint32_t kBarrierCountThreadBits = 11;  // 0..1024 threads
inline constexpr uint32_t kBarrierCountCompletedBits = 64 - kBarrierCountTagBits - 2 * kBarrierCountThreadBits;
inline constexpr uint32_t kBarrierCountCompletedMask = (1u << kBarrierCountCompletedBits) - 1;

BARRACUDA_BARRIER_COUNT_HD constexpr uint64_t pack_block_barrier_state(uint32_t tag, BlockBarrierState state) {
  return uint64_t{tag & 0xffffu} << 48 | uint64_t{state.completed & kBarrierCountCompletedMask} << 22 |
         uint64_t{state.waiting & 0x7ffu} << 11 | (state.live & 0x7ffu);
}
BARRACUDA_BARRIER_COUNT_HD constexpr BlockBarrierState unpack_block_barrier_state(uint64_t word, uint32_t tag,
                                                                                uint32_t block_threads) {
  if (static_cast<uint32_t>(word >> 48) != (tag & 0xffffu)) return {0, 0, block_threads};
  return {static_cast<uint32_t>(word >> 22) & kBarrierCountCompletedMask, static_cast<uint32_t>(word >> 11) & 0x7ffu,
          static_cast<uint32_t>(word) & 0x7ffu};
}

// The block's next state and the divergence one step found.
struct BarrierStep {
  BlockBarrierState state;
  BarrierDivergence divergence = BarrierDivergence::kNone;
  // Of an arrival: the barrier (block count once it completes, modulo 2^kCompletedBits) the lanes
  // waited at: the block's pending one, which lanes behind the block (a barrier was taken as
  // completed without them) reach too, as in the engine, whose arrivals name no barrier number.
  uint32_t arrived_at = 0;
};

// A thread count as the block word keeps it (modulo 2^kCompletedBits).
BARRACUDA_BARRIER_COUNT_HD constexpr uint32_t barrier_count_key(uint64_t passed) {
  return static_cast<uint32_t>(passed) & kBarrierCountCompletedMask;
}

// Lanes that passed barriers the block has not completed: let through, and the pending barrier is
// taken as completed (the engine's complete_divergent). `passed` is the most any of the lanes passed.
BARRACUDA_BARRIER_COUNT_HD constexpr BarrierStep settle_let_through(BlockBarrierState state, uint32_t passed) {
  const uint32_t ahead = (barrier_count_key(passed) - state.completed) & kBarrierCountCompletedMask;
  if (ahead == 0 || ahead > kBarrierCountCompletedMask / 2) return {state, BarrierDivergence::kNone};
  return {{barrier_count_key(passed), 0, state.live}, BarrierDivergence::kLetThrough};
}

// `lanes` live threads that passed `passed` barriers (the most of them) arrive at a block barrier.
BARRACUDA_BARRIER_COUNT_HD constexpr BarrierStep arrive_at_block_barrier(BlockBarrierState state, uint32_t passed,
                                                                        uint32_t lanes) {
  BarrierStep step = settle_let_through(state, passed);
  step.arrived_at = (step.state.completed + 1) & kBarrierCountCompletedMask;
  step.state.waiting += lanes;
  if (step.state.waiting >= step.state.live) step.state = {(step.state.completed + 1) & kBarrierCountCompletedMask, 0, step.state.live};
  return step;
}

// A lane's barrier count once it arrived at `arrived_at` (BarrierStep): `counted` (its count with this
// barrier) moved up to it when the lane was behind the block. Counts stay exact past the block
// word's bits: only the difference is taken from them.
BARRACUDA_BARRIER_COUNT_HD constexpr uint32_t count_after_arrival(uint32_t counted, uint32_t arrived_at) {
  const uint32_t behind = (arrived_at - barrier_count_key(counted)) & kBarrierCountCompletedMask;
  return behind != 0 && behind <= kBarrierCountCompletedMask / 2 ? counted + behind : counted;
}

// `lanes` live threads that passed `passed` barriers (the most of them) exit. Lanes that exit while
// others wait for them are a divergence; the waiting ones then go on once all live threads arrived,
// as the hardware releases a barrier its exited threads no longer hold up.
BARRACUDA_BARRIER_COUNT_HD constexpr BarrierStep exit_block_lanes(BlockBarrierState state, uint32_t passed,
                                                                 uint32_t lanes) {
  BarrierStep step = settle_let_through(state, passed);
  if (step.divergence == BarrierDivergence::kNone && step.state.waiting != 0) {
    step.divergence = BarrierDivergence::kExitedWhileWaiting;
  }
  step.state.live = step.state.live >= lanes ? step.state.live - lanes : 0;
  if (step.state.waiting != 0 && step.state.waiting >= step.state.live) {
    step.state = {(step.state.completed + 1) & kBarrierCountCompletedMask, 0, step.state.live};
  }
  return step;
}

// The block's pending barrier, for the divergence record to name (the engine names the site of the
// first arrival): its site, with the tag and the completed count it belongs to, so a word of an
// earlier barrier is not taken for it.
BARRACUDA_BARRIER_COUNT_HD constexpr uint64_t pack_pending_barrier_site(uint32_t tag, uint32_t completed,
                                                                       uint32_t site) {
  return uint64_t{tag & 0xffffu} << 48 | uint64_t{completed & 0xffffu} << 32 | site;
}
BARRACUDA_BARRIER_COUNT_HD constexpr bool pending_barrier_site_is(uint64_t word, uint32_t tag, uint32_t completed) {
  return (word >> 32) == (uint64_t{tag & 0xffffu} << 16 | (completed & 0xffffu));
}

}  // namespace barracuda

#undef BARRACUDA_BARRIER_COUNT_HD

#include "barrier_count_simulator.h"

#include <algorithm>
#include <bit>
#include <map>

#include "barracuda/barrier_count.h"
#include "barracuda/record_view.h"

namespace barracuda::devicecheck::test {
namespace {

constexpr uint32_t kTag = 1;

struct Block {
  BlockBarrierState state;
  uint32_t pending_site = 0;
  uint32_t pending_completed = ~0u;       // the completed count pending_site belongs to
  std::vector<uint32_t> passed;           // per block-linear thread
  std::vector<bool> told;
  std::vector<bool> past_barrier;         // its barrier's after-call (kPass) has not run yet
};

enum class Event { kArrive, kPass, kExit };

class Counter {
 public:
  explicit Counter(const engine::LaunchInfo& launch) : launch_(launch) {}

  std::vector<RecordHeader> run(std::span<const RecordHeader> slots) {
    for (size_t i = 0; i < slots.size();) {
      const RecordView record(slots[i], slots.data() + i + 1);
      const size_t count = record.slot_count();
      const RecordHeader& h = slots[i];
      Block& block = block_of(h.block_id);
      // The lanes' after-call of their last barrier: run before their next record (the GPU runs it
      // right after the barrier; the engine looks at the next record).
      RecordHeader past = h;
      past.active_mask = 0;
      for_lanes(h, [&](uint32_t t) {
        if (block.past_barrier[t]) past.active_mask |= 1u << (t % kWarpSize);
        block.past_barrier[t] = false;
      });
      if (past.active_mask != 0) update(block, past, most_passed(block, past), Event::kPass);
      if (record.op() == RecordOp::kBarrier && h.base == 0 && h.stride == 0) {
        const uint32_t passed = most_passed(block, h);
        for_lanes(h, [&](uint32_t t) {
          ++block.passed[t];
          block.told[t] = false;
          block.past_barrier[t] = true;
        });
        const uint32_t arrived_at = update(block, h, passed, Event::kArrive);
        for_lanes(h, [&](uint32_t t) { block.passed[t] = count_after_arrival(block.passed[t], arrived_at); });
      } else {
        if (record.op() == RecordOp::kWarpExit) {  // counted, not logged
          update(block, h, most_passed(block, h), Event::kExit);
          i += count;
          continue;
        }
        if (record.is_memory_access()) tell(block, h);
        out_.insert(out_.end(), slots.begin() + static_cast<std::ptrdiff_t>(i),
                    slots.begin() + static_cast<std::ptrdiff_t>(i + count));
      }
      i += count;
    }
    return std::move(out_);
  }

 private:
  Block& block_of(uint32_t id) {
    Block& block = blocks_[id];
    if (block.passed.empty()) {
      block.passed.assign(launch_.block.volume(), 0);
      block.told.assign(launch_.block.volume(), false);
      block.past_barrier.assign(launch_.block.volume(), false);
      block.state = unpack_block_barrier_state(0, kTag, launch_.block.volume());
    }
    return block;
  }

  // A header-only record `op` of h's lanes, at h's site, carrying `base`.
  static RecordHeader header_only(const RecordHeader& h, RecordOp op, uint64_t base) {
    return RecordHeader{static_cast<uint8_t>(op), 0, 0, 0, h.active_mask, h.site_id, h.block_id, h.warp_id, h.launch_id, 0, base};
  }

  template <typename Lane>
  static void for_lanes(const RecordHeader& h, Lane lane) {
    for (uint32_t m = h.active_mask; m; m &= m - 1) lane(h.warp_id * kWarpSize + static_cast<uint32_t>(std::countr_zero(m)));
  }

  uint32_t most_passed(const Block& block, const RecordHeader& h) const {
    uint32_t most = 0;
    for_lanes(h, [&](uint32_t t) { most = std::max(most, block.passed[t]); });
    return most;
  }

  // update_block_barriers (barrier_counter.cuh), the pending site kept as the device keeps it; returns
  // the step's arrived_at.
  uint32_t update(Block& block, const RecordHeader& h, uint32_t passed, Event event) {
    const BlockBarrierState before = block.state;
    const uint32_t lanes = static_cast<uint32_t>(std::popcount(h.active_mask));
    const BarrierStep step = event == Event::kArrive ? arrive_at_block_barrier(before, passed, lanes)
                             : event == Event::kExit ? exit_block_lanes(before, passed, lanes)
                                                     : settle_let_through(before, passed);
    if (event == Event::kPass && step.divergence == BarrierDivergence::kNone) return 0;  // the device changes nothing
    block.state = step.state;
    if (event == Event::kArrive && step.state.waiting != 0 && step.state.waiting == lanes) {
      block.pending_site = h.site_id;
      block.pending_completed = step.state.completed;
    }
    if (step.divergence != BarrierDivergence::kNone) {
      RecordHeader divergence = header_only(h, RecordOp::kBarrierDivergence, static_cast<uint64_t>(step.divergence));
      if (block.pending_completed == before.completed) divergence.site_id = block.pending_site;
      out_.push_back(divergence);
    }
    return step.arrived_at;
  }

  // tell_barriers_passed (barrier_counter.cuh).
  void tell(Block& block, const RecordHeader& h) {
    bool untold = false;
    for_lanes(h, [&](uint32_t t) { untold = untold || (block.passed[t] != 0 && !block.told[t]); });
    if (!untold) return;
    out_.push_back(header_only(h, RecordOp::kBarriersPassed, most_passed(block, h)));
    for_lanes(h, [&](uint32_t t) { block.told[t] = block.told[t] || block.passed[t] != 0; });
  }

  const engine::LaunchInfo& launch_;
  std::map<uint32_t, Block> blocks_;
  std::vector<RecordHeader> out_;
};

}  // namespace

std::vector<RecordHeader> count_barriers_on_device(const engine::LaunchInfo& launch,
                                                   std::span<const RecordHeader> slots) {
  return Counter(launch).run(slots);
}

}  // namespace barracuda::devicecheck::test

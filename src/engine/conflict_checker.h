#pragma once
// The race rule: given an earlier access that conflicts with the current one (same location,
// different threads, at least one write), decide whether they race and how to classify it.
#include <array>

#include "engine/block_state.h"
#include "engine/race_log.h"

namespace barracuda::engine {

// The hazard two conflicting accesses form, named from the earlier to the later one (the shared rule,
// barracuda/race_rule.h, on the engine's access kinds).
Hazard hazard_between(const AccessKind& earlier, const AccessKind& current);
// Of an atomic-plain pair: which access was the atomic, whether the plain one wrote.
AtomicPlainSides atomic_plain_sides(const AccessKind& earlier, const AccessKind& current);

// What every lane of one memory record shares.
struct RecordAccess {
  SiteId site{};
  AccessKind kind{};
  MemorySpace space{};
  uint8_t flags = 0;  // RecordHeader::flags
  uint32_t size = 0;  // bytes per lane
};

class ConflictChecker final : public ConflictSink {
 public:
  ConflictChecker(const LaunchInfo& launch, BlockState& block, RaceLog& races, std::vector<LateFlagWrite>& late_flags,
                  const RecordAccess& record)
      : launch_(launch), block_(block), races_(races), late_flags_(late_flags), record_(record) {
    stamp_.site = record.site;
    stamp_.kind = record.kind;
  }

  // Starts checking the access of thread `local` (index in the block), stamped with `clock`.
  void begin_lane(uint32_t local, Clock clock) {
    // Field by field: only these two change per lane (and a whole-struct copy of the 14-byte
    // stamp costs a store-forwarding stall on every lane).
    local_ = local;
    stamp_.thread = block_.thread_id(local);
    stamp_.clock = clock;
  }
  // A volatile write is strong only where it completes a fence's release pattern: decided per lane.
  void set_strong(bool strong) { stamp_.kind.strong = strong; }
  // The 4-byte word whose cell is checked next.
  void set_word(uint64_t word_address) { word_address_ = word_address; }
  const Stamp& stamp() const { return stamp_; }
  // The current lane is done: later lanes of the record recognise its stamp as "this instruction".
  void lane_done() {
    const uint32_t lane = local_ % kWarpSize;
    record_clocks_[lane] = stamp_.clock;
    record_lanes_done_ |= 1u << lane;
    // Atomic flags in global memory only: a block's shared-memory histogram bumps the same bins from
    // every thread, and message passing within a block goes through its barriers.
    if (observed_) [[unlikely]] {
      observed_ = false;
      if (record_.space != MemorySpace::kShared) note_atomic_flag(observed_thread_, observed_clock_, observed_site_);
    } else if (stamp_.kind.atomic && stamp_.kind.read && record_.space != MemorySpace::kShared) {
      block_.flags().reread_by_atomic(local_, word_address_, stamp_.site, stamp_.clock);
    }
  }
  bool conflict(const Stamp& earlier, uint32_t byte) override;

 private:
  BlockId block_of(ThreadId t) const { return static_cast<BlockId>(raw(t) / launch_.padded_threads_per_block()); }
  bool covers(MemoryScope scope, ThreadId a, ThreadId b) const;
  RaceClass classify(const Stamp& earlier) const;
  // Was `earlier` made by another lane of the record being applied?
  bool same_instruction(const Stamp& earlier) const;
  // The current write of a flag that `earlier`, another thread's read of it, may have seen (LateFlagWrite).
  void note_late_flag_write(const Stamp& earlier, uint32_t byte);
  // The current access read `earlier`'s flag write (FlagObservations).
  void note_flag_read(ThreadId writer, Clock writer_clock, SiteId write_site, uint32_t byte);
  // The current atomic met `other`'s unordered atomic on the same word (observe_atomic_write): it read
  // other's write, and, where other's atomic read too, other may have read this one's (the engine's
  // order need not be the GPU's).
  void note_atomic_flag(ThreadId other, Clock other_clock, SiteId other_site);
  // The flag that handed `earlier` over to the current thread without fences, if one did.
  FlagHandOff flag_hand_off(const Stamp& earlier);

  const LaunchInfo& launch_;
  BlockState& block_;
  RaceLog& races_;
  std::vector<LateFlagWrite>& late_flags_;
  const RecordAccess& record_;
  uint32_t local_ = 0;
  Stamp stamp_;
  uint64_t word_address_ = 0;
  // Stamp clocks of the record's lanes done so far; only entries in record_lanes_done_ are read,
  // so the array is not cleared per record.
  std::array<Clock, kWarpSize> record_clocks_;
  uint32_t record_lanes_done_ = 0;
};

}  // namespace barracuda::engine

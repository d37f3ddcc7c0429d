#pragma once
// The race rule: given an earlier access that conflicts with the current one (same location,
// different threads, at least one write), decide whether they race and how to classify it.
#include <array>

#include "engine/block_state.h"
#include "engine/race_log.h"

namespace barracuda::engine {

struct CurrentAccess {
  uint32_t local = 0;        // thread index within the block
  Stamp stamp;
  MemorySpace space{};
  uint64_t word_address = 0;  // the 4-byte word being checked
  uint8_t flags = 0;          // RecordHeader::flags
  uint32_t size = 0;         // bytes of the whole lane access
};

class ConflictChecker final : public ConflictSink {
 public:
  ConflictChecker(const LaunchInfo& launch, BlockState& block, RaceLog& races)
      : launch_(launch), block_(block), races_(races) {}

  void set_access(const CurrentAccess& access) { access_ = access; }
  CurrentAccess& access() { return access_; }
  // The current lane is done: later lanes of the record recognise its stamp as "this instruction".
  void lane_done() {
    const uint32_t lane = access_.local % kWarpSize;
    record_clocks_[lane] = access_.stamp.clock;
    record_lanes_done_ |= 1u << lane;
  }
  void conflict(const Stamp& earlier, uint32_t byte) override;

 private:
  BlockId block_of(ThreadId t) const { return static_cast<BlockId>(raw(t) / launch_.padded_threads_per_block()); }
  bool covers(MemoryScope scope, ThreadId a, ThreadId b) const;
  RaceClass classify(const Stamp& earlier) const;
  // Was `earlier` made by another lane of the record being applied?
  bool same_instruction(const Stamp& earlier) const;

  const LaunchInfo& launch_;
  BlockState& block_;
  RaceLog& races_;
  CurrentAccess access_;
  std::array<Clock, kWarpSize> record_clocks_{};  // stamp clocks of the record's lanes done so far
  uint32_t record_lanes_done_ = 0;
};

}  // namespace barracuda::engine

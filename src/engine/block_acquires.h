#pragma once
// The gpu-scope acquires of global memory made by one block's threads, handed on to their block-mates
// for message passing between concurrent launches (cross_launch_sync.h). The common consumer has one
// thread spin on the flag, then __syncthreads, then every thread read the published data: a thread
// that is ordered after a block-mate's acquire of a location (BlockState::knows) counts, from its next
// access on, as having acquired that location itself.
//
// Few threads of a block acquire in practice. A block whose acquirers pass a small bound (a lock per
// thread) stops handing acquires on: its threads then count only their own acquires, as they would
// without this, so their races are still reported.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/ids.h"

namespace barracuda::engine {

class BlockAcquires {
 public:
  explicit BlockAcquires(uint32_t block_threads) : block_threads_(block_threads) {}

  // Thread `local` of the block (`thread` in the launch) acquired `address`; `clock` is its clock
  // before the acquire, the one its sync point keeps.
  void note(uint32_t local, ThreadId thread, uint64_t address, Clock clock);

  // Whether some location acquired in the block is one `local` has neither acquired nor inherited:
  // asked per global access, hence inline and cheap when nothing is to be handed on.
  bool may_hand_on(uint32_t local) const { return !locations_.empty() && held_[local] != every_location(); }

  // Hands on to `local` each location it does not hold yet whose acquire by a block-mate it is ordered
  // after (`knows(acquirer, clock)`), calling `inherit(address)` for it. True when any was.
  template <typename Knows, typename Inherit>
  bool hand_on(uint32_t local, Knows&& knows, Inherit&& inherit) {
    uint32_t missing = every_location() & ~held_[local];
    const uint32_t before = missing;
    for (const Acquirer& a : acquirers_) {
      const uint32_t bit = uint32_t{1} << a.location;
      if ((missing & bit) == 0 || !knows(a.thread, a.clock)) continue;
      missing &= ~bit;
      inherit(locations_[a.location]);
    }
    held_[local] |= before & ~missing;
    return missing != before;
  }

 private:
  // Bounds the work per access of a thread not ordered after any acquire (one knows() per acquirer);
  // also bounds the locations to the bits of a mask.
  static constexpr size_t kMaxAcquirers = 32;

  struct Acquirer {
    uint32_t location = 0;  // index into locations_
    ThreadId thread{};
    Clock clock{};  // of the thread's first acquire of the location
  };

  uint32_t every_location() const {
    return locations_.size() == kMaxAcquirers ? ~uint32_t{0} : (uint32_t{1} << locations_.size()) - 1;
  }
  uint32_t location_index(uint64_t address);
  void give_up();

  uint32_t block_threads_;
  std::vector<uint64_t> locations_;
  std::vector<Acquirer> acquirers_;
  std::vector<uint32_t> held_;  // per thread (from the first acquire): bit i once it holds locations_[i]
  bool gave_up_ = false;        // too many acquirers: nothing is handed on any more
};

}  // namespace barracuda::engine

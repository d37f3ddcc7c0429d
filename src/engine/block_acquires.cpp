#include "engine/block_acquires.h"

#include <algorithm>

namespace barracuda::engine {

void BlockAcquires::note(uint32_t local, ThreadId thread, uint64_t address, Clock clock) {
  if (gave_up_) return;
  // A thread's later acquires of a location add nothing: whoever knows one of them knows its first.
  const bool known = std::any_of(acquirers_.begin(), acquirers_.end(), [&](const Acquirer& a) {
    return a.thread == thread && locations_[a.location] == address;
  });
  if (!known && acquirers_.size() == kMaxAcquirers) return give_up();
  const uint32_t location = location_index(address);
  if (held_.empty()) held_.assign(block_threads_, 0);
  // The thread's own sync point covers its accesses after the acquire.
  held_[local] |= uint32_t{1} << location;
  if (!known) acquirers_.push_back({location, thread, clock});
}

uint32_t BlockAcquires::location_index(uint64_t address) {
  const auto found = std::find(locations_.begin(), locations_.end(), address);
  if (found != locations_.end()) return static_cast<uint32_t>(found - locations_.begin());
  // Room is left: every location has an acquirer, and there are fewer than kMaxAcquirers of them.
  locations_.push_back(address);
  return static_cast<uint32_t>(locations_.size() - 1);
}

void BlockAcquires::give_up() {
  gave_up_ = true;
  locations_ = {};
  acquirers_ = {};
  held_ = {};
}

}  // namespace barracuda::engine

#pragma once
// A fixed-capacity list of observers that hooks can walk on every launch without locks or allocation.
#include <array>
#include <atomic>
#include <cstddef>
#include <mutex>

#include "shim/termination_signals.h"

namespace barracuda::shim {

template <typename Observer>
class ObserverList {
 public:
  static constexpr std::size_t kCapacity = 8;

  // Observers are registered for the life of the process and are never removed. Returns false when the
  // list is full.
  bool add(Observer& observer) {
    std::lock_guard lock(add_mutex_);
    std::size_t count = count_.load(std::memory_order_relaxed);
    if (count == kCapacity) return false;
    slots_[count].store(&observer, std::memory_order_relaxed);
    count_.store(count + 1, std::memory_order_release);
    return true;
  }

  bool empty() const { return count_.load(std::memory_order_acquire) == 0; }

  // The observers run with the termination signals held off (termination_signals.h).
  template <typename Visit>
  void for_each(Visit&& visit) const {
    std::size_t count = count_.load(std::memory_order_acquire);
    if (count == 0) return;
    const TerminationSignalsDeferred deferred;
    for (std::size_t i = 0; i < count; ++i) visit(*slots_[i].load(std::memory_order_relaxed));
  }

 private:
  std::mutex add_mutex_;
  std::atomic<std::size_t> count_{0};
  std::array<std::atomic<Observer*>, kCapacity> slots_{};
};

}  // namespace barracuda::shim

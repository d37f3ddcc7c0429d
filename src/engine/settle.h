#pragma once
// Settling an ended launch on several threads at once (the drain threads, DrainPool::settle; the
// engine's end_launch, Engine::settle_in_parallel; replays with --workers): when each stops.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace barracuda::engine {

// Threads settling one ended launch together: each keeps taking the turns handed to its worker.
// A thread stops when it holds nothing back; or after kSettleLooks looks that found no thread inside
// (a thread counts as inside before it knows whether there is work: one handed a turn may apply
// records for long before it can say so, and the others must not stop meanwhile); or once no thread
// got anything done for kSettlePatience. Without the last rule threads waiting for a turn no poke
// announces (end_launch's retry finds it) saw each other inside for ever: a cooperative grid-sync
// launch of 32 blocks held 15 drain threads yielding until the run's --timeout (H100, 2026-11-27).
inline constexpr uint32_t kSettleLooks = 4096;
inline constexpr std::chrono::milliseconds kSettlePatience{20};

enum class SettleLook { kApplied, kWaiting, kNothingHeld };

struct SettleProgress {
  std::atomic<uint32_t> inside{0};   // threads looking at their held-back work now
  std::atomic<uint64_t> applied{0};  // looks that applied something, by any thread
};

// One thread's settling: `look` takes the turns handed to its worker.
template <typename Look>
void settle(SettleProgress& progress, Look&& look) {
  uint64_t seen = progress.applied.load(std::memory_order_relaxed);
  auto since = std::chrono::steady_clock::now();
  for (uint32_t idle_looks = 0;;) {
    progress.inside.fetch_add(1, std::memory_order_seq_cst);
    const SettleLook result = look();
    progress.inside.fetch_sub(1, std::memory_order_seq_cst);
    if (result == SettleLook::kNothingHeld) return;
    if (result == SettleLook::kApplied) {
      progress.applied.fetch_add(1, std::memory_order_relaxed);
      idle_looks = 0;
      continue;
    }
    if (progress.inside.load(std::memory_order_seq_cst) == 0 && ++idle_looks == kSettleLooks) return;
    const uint64_t applied = progress.applied.load(std::memory_order_relaxed);
    const auto now = std::chrono::steady_clock::now();
    if (applied != seen) {
      seen = applied;
      since = now;
    } else if (now - since > kSettlePatience) {
      return;
    }
    std::this_thread::yield();
  }
}

}  // namespace barracuda::engine

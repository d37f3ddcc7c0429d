// Settling an ended launch on several threads (engine/settle.h): threads that only wait must stop,
// and one that keeps applying keeps the others looking.
#include "engine/settle.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace barracuda::engine {
namespace {

using Clock = std::chrono::steady_clock;

// Each look takes `busy`, so some thread is nearly always inside one: the "no thread inside" rule alone
// never fires (the drain threads yielding until --timeout on a cooperative launch).
void busy_for(std::chrono::microseconds busy) {
  const auto until = Clock::now() + busy;
  while (Clock::now() < until) {
  }
}

TEST(Settle, ThreadsThatOnlyWaitStopOnceNobodyAppliesAnything) {
  SettleProgress progress;
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      settle(progress, [] {
        busy_for(std::chrono::microseconds(200));
        return SettleLook::kWaiting;
      });
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
}

TEST(Settle, AThreadStillApplyingKeepsTheOthersLooking) {
  SettleProgress progress;
  std::atomic<bool> applying{true};
  bool waiter_stopped_early = true;
  std::thread applier([&] {
    int turns = 0;
    settle(progress, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      if (++turns < 100) return SettleLook::kApplied;  // ~100 ms of turns, one every millisecond
      applying = false;
      return SettleLook::kNothingHeld;
    });
  });
  std::thread waiter([&] {
    settle(progress, [&] { return applying ? SettleLook::kWaiting : SettleLook::kNothingHeld; });
    waiter_stopped_early = applying;
  });
  applier.join();
  waiter.join();
  // The waiter stopped only once the applier finished: it saw progress all along.
  EXPECT_FALSE(waiter_stopped_early);
}

}  // namespace
}  // namespace barracuda::engine

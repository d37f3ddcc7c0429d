#include "engine/parallel_consume.h"

#include <atomic>
#include <thread>

namespace barracuda::engine {

void consume_in_parallel(Engine& engine, std::span<const std::vector<RecordHeader>> slots) {
  SettleProgress progress;
  std::vector<std::thread> threads;
  for (uint32_t index = 0; index < engine.worker_count() && index < slots.size(); ++index) {
    threads.emplace_back([&engine, &progress, &slots, index] {
      Worker& worker = engine.worker(index);
      progress.inside.fetch_add(1);
      worker.consume(slots[index]);
      progress.inside.fetch_sub(1);
      settle_worker(worker, progress);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

void settle_worker(Worker& worker, SettleProgress& progress) {
  settle(progress, [&worker] {
    if (!worker.has_deferred()) return SettleLook::kNothingHeld;
    if (worker.catch_up()) return SettleLook::kApplied;
    return worker.has_deferred() ? SettleLook::kWaiting : SettleLook::kNothingHeld;
  });
}

}  // namespace barracuda::engine

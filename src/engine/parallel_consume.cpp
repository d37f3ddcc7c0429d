#include "engine/parallel_consume.h"

#include <atomic>
#include <thread>

namespace barracuda::engine {

void consume_in_parallel(Engine& engine, std::span<const std::vector<RecordHeader>> slots) {
  std::atomic<uint32_t> inside{0};  // threads consuming or looking at their held-back work
  std::vector<std::thread> threads;
  for (uint32_t index = 0; index < engine.worker_count() && index < slots.size(); ++index) {
    threads.emplace_back([&engine, &inside, &slots, index] {
      Worker& worker = engine.worker(index);
      inside.fetch_add(1);
      worker.consume(slots[index]);
      inside.fetch_sub(1);
      settle_worker(worker, inside);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

void settle_worker(Worker& worker, std::atomic<uint32_t>& inside) {
  for (uint32_t looks = 0; worker.has_deferred();) {
    inside.fetch_add(1);
    const bool applied = worker.catch_up();
    inside.fetch_sub(1);
    if (applied) {
      looks = 0;
      continue;
    }
    if (inside.load() == 0 && ++looks == kSettleLooks) break;
    std::this_thread::yield();
  }
}

}  // namespace barracuda::engine

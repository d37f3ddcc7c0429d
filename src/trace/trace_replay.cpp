#include "trace/trace_replay.h"

#include <atomic>
#include <thread>

#include "trace/trace_error.h"

namespace barracuda::trace {
namespace {

engine::Dim3 to_dim3(const std::array<uint32_t, 3>& d) { return {d[0], d[1], d[2]}; }

// Looks at its held-back work a thread makes while no thread finds any, before it stops (as a drain
// thread settling).
constexpr uint32_t kSettleLooks = 4096;

}  // namespace

void TraceReplay::launch(const LaunchDescriptor& launch) {
  finish();
  engine::LaunchInfo info;
  info.launch_id = static_cast<uint16_t>(launch.launch_id);  // records carry the low 16 bits
  info.kernel = launch.kernel;
  info.grid = to_dim3(launch.grid);
  info.block = to_dim3(launch.block);
  info.shared_bytes = launch.dynamic_shared_bytes;
  info.warp_model = model_;
  engine_.begin_launch(info);
  open_ = true;
}

void TraceReplay::slots(const SlotChunk& chunk) {
  if (!open_) throw TraceFormatError("slots before any launch");
  const uint32_t worker = chunk.queue_index % engine_.worker_count();
  if (engine_.worker_count() == 1) return engine_.worker(worker).consume(chunk.slots);
  pending_.resize(engine_.worker_count());
  pending_[worker].insert(pending_[worker].end(), chunk.slots.begin(), chunk.slots.end());
}

void TraceReplay::finish() {
  if (!open_) return;
  if (engine_.worker_count() > 1) consume_in_parallel();
  engine_.end_launch();
  open_ = false;
}

void TraceReplay::consume_in_parallel() {
  const uint32_t workers = engine_.worker_count();
  std::atomic<uint32_t> inside{0};  // threads looking at their held-back work
  std::vector<std::thread> threads;
  for (uint32_t index = 0; index < workers && index < pending_.size(); ++index) {
    threads.emplace_back([this, index, &inside] {
      engine::Worker& worker = engine_.worker(index);
      inside.fetch_add(1);
      worker.consume(pending_[index]);
      inside.fetch_sub(1);
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
    });
  }
  for (std::thread& thread : threads) thread.join();
  pending_.clear();
}

}  // namespace barracuda::trace

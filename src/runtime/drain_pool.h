#pragma once
// The host's drain threads: they live for the session, sleep between launches and, during one,
// each drains its own share of the queues into the engine while the kernel runs (the GPU waits
// when a queue is full, so draining cannot wait for the kernel to end).
//
// Thread i takes the queues q with q % threads == i. A block logs into one queue only (it stays on
// its SM), so every record of a block reaches one thread, in order: the engine worker i that
// thread feeds owns the block's state without locks.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "runtime/live_arena.h"

namespace barracuda::runtime {

// Called on drain thread `thread` with whole records of `queue`, in queue order.
using RecordSink = std::function<void(uint32_t thread, uint32_t queue, std::span<const RecordHeader> records)>;

struct DrainTotals {
  uint64_t records = 0;
  uint64_t slots = 0;
  std::chrono::nanoseconds sink_time{};  // summed over the threads: time spent inside the sink
  std::optional<std::string> error;      // the first malformed queue or sink exception
  // A drain found a queue at least half full: the GPU logged faster than the drain kept up.
  bool queue_ran_full = false;
};

class DrainPool {
 public:
  // Starts `threads` (>= 1) drain threads.
  explicit DrainPool(uint32_t threads);
  ~DrainPool();
  DrainPool(const DrainPool&) = delete;
  DrainPool& operator=(const DrainPool&) = delete;

  uint32_t threads() const { return thread_count_; }

  // Drains `arena` into `sink` on the pool's threads until `launch_done` (polled by the calling
  // thread) returns true, then until every thread has drained what was published before that.
  // `launch_done` must become true only once the producers have published their last record (for the
  // GPU: every thread counted in threads_exited, or the kernel's stream complete). A malformed queue
  // or a throwing sink stops nothing: the error is returned and draining goes on, so the producers
  // never stall. An exception from `launch_done` is rethrown once the threads are idle again.
  // One launch at a time: concurrent calls are serialised.
  DrainTotals drain_launch(LiveArena& arena, const RecordSink& sink, const std::function<bool()>& launch_done);

 private:
  struct Job {
    LiveArena* arena = nullptr;
    const RecordSink* sink = nullptr;
  };

  void run(uint32_t index);
  DrainTotals drain_share(uint32_t index, const Job& job, std::vector<QueueSlot>& scratch);

  const uint32_t thread_count_;
  std::mutex launch_mutex_;  // one drain_launch at a time
  std::mutex mutex_;         // guards everything below but last_pass_
  std::condition_variable wake_;  // a new job, or stopping
  std::condition_variable idle_;  // running_ reached 0
  Job job_;
  uint64_t generation_ = 0;  // bumped per job
  uint32_t running_ = 0;     // threads still draining the current job
  bool stopping_ = false;
  DrainTotals totals_;
  // Set once the producers are done: each thread then makes one more pass over its queues.
  std::atomic<bool> last_pass_{false};
  std::vector<std::thread> threads_;
};

}  // namespace barracuda::runtime

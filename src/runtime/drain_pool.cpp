#include "runtime/drain_pool.h"

#include <algorithm>
#include <exception>

namespace barracuda::runtime {
namespace {

// Empty passes a thread spins through (yielding) before it naps between passes: a busy queue is
// drained at once, an idle launch does not burn a core per thread.
constexpr uint32_t kSpinPasses = 64;
constexpr auto kNap = std::chrono::microseconds(50);
// How often the launching thread checks whether the launch is done.
constexpr auto kPollInterval = std::chrono::microseconds(20);
// A queue found empty is skipped for 1, 3, 7, ... up to 2^kMaxQueueBackoff - 1 passes. Every look
// at an empty queue reads the line the GPU is about to write, and the GPU's write must then take
// it back from the CPU's cache: with 15 threads polling 132 queues this slowed the H100's logging
// threefold (gemm_tiled, drain only: 54 M events/s with 15 threads, 156 M/s with 4).
constexpr uint32_t kMaxQueueBackoff = 5;

// When to look at one queue again.
struct QueuePoll {
  uint8_t backoff = 0;  // consecutive empty looks, capped
  uint8_t skip = 0;     // passes left before the next look
};

void merge_into(DrainTotals& into, DrainTotals&& from) {
  into.records += from.records;
  into.slots += from.slots;
  into.sink_time += from.sink_time;
  into.queue_ran_full |= from.queue_ran_full;
  if (!into.error) into.error = std::move(from.error);
}

}  // namespace

DrainPool::DrainPool(uint32_t threads) : thread_count_(std::max(threads, 1u)) {
  threads_.reserve(thread_count_);
  for (uint32_t i = 0; i < thread_count_; ++i) threads_.emplace_back([this, i] { run(i); });
}

DrainPool::~DrainPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

DrainTotals DrainPool::drain_launch(LiveArena& arena, const RecordSink& sink, const std::function<bool()>& launch_done) {
  std::lock_guard launch_lock(launch_mutex_);
  {
    std::lock_guard lock(mutex_);
    job_ = {&arena, &sink};
    totals_ = {};
    running_ = threads();
    last_pass_.store(false, std::memory_order_relaxed);  // published to the threads by the mutex
    ++generation_;
  }
  wake_.notify_all();
  std::exception_ptr failure;
  try {
    while (!launch_done()) std::this_thread::sleep_for(kPollInterval);
  } catch (...) {
    failure = std::current_exception();
  }
  // Release: a thread that sees the flag also sees what launch_done saw (the exit count), so the
  // records it reads next include every record of the launch.
  last_pass_.store(true, std::memory_order_release);
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return running_ == 0; });
  if (failure) std::rethrow_exception(failure);
  return std::move(totals_);
}

void DrainPool::run(uint32_t index) {
  std::vector<QueueSlot> scratch;
  uint64_t seen = 0;
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
    }
    DrainTotals mine = drain_share(index, job, scratch);
    std::lock_guard lock(mutex_);
    merge_into(totals_, std::move(mine));
    if (--running_ == 0) idle_.notify_one();
  }
}

DrainTotals DrainPool::drain_share(uint32_t index, const Job& job, std::vector<QueueSlot>& scratch) {
  DrainTotals totals;
  const uint32_t queue_count = job.arena->shape().queue_count;
  std::vector<QueuePoll> polls((queue_count + threads() - 1) / threads());
  uint32_t empty_passes = 0;
  for (;;) {
    const bool last = last_pass_.load(std::memory_order_acquire);
    const uint64_t slots_before = totals.slots;
    for (uint32_t queue = index; queue < queue_count; queue += threads()) {
      QueuePoll& poll = polls[queue / threads()];
      if (!last && poll.skip > 0) {  // the last pass looks at every queue
        --poll.skip;
        continue;
      }
      QueueDrain drained = job.arena->drain(queue, scratch);
      if (drained.slots == 0) {
        poll.backoff = static_cast<uint8_t>(std::min<uint32_t>(poll.backoff + 1, kMaxQueueBackoff));
        poll.skip = static_cast<uint8_t>((1u << poll.backoff) - 1);
      } else {
        poll.backoff = 0;
      }
      totals.records += drained.records;
      totals.slots += drained.slots;
      if (drained.slots * 2 >= job.arena->shape().capacity) totals.queue_ran_full = true;
      if (drained.error && !totals.error) totals.error = std::move(drained.error);
      if (scratch.empty()) continue;
      const auto start = std::chrono::steady_clock::now();
      try {
        (*job.sink)(index, queue, {reinterpret_cast<const RecordHeader*>(scratch.data()), scratch.size()});
      } catch (const std::exception& e) {
        if (!totals.error) totals.error = e.what();
      }
      totals.sink_time += std::chrono::steady_clock::now() - start;
    }
    if (last) return totals;
    if (totals.slots != slots_before) {
      empty_passes = 0;
    } else if (++empty_passes < kSpinPasses) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(kNap);
    }
  }
}

}  // namespace barracuda::runtime

#include "runtime/drain_pool.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "engine/settle.h"
#include "shim/termination_signals.h"

namespace barracuda::runtime {
namespace {

// Empty passes a thread spins through (yielding) before it naps between passes: a busy queue is
// drained at once, an idle launch does not burn a core per thread.
constexpr uint32_t kSpinPasses = 64;
constexpr auto kNap = std::chrono::microseconds(50);
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

uint16_t launch_of(const QueueSlot& slot) { return reinterpret_cast<const RecordHeader&>(slot).launch_id; }

// Slots of the record starting at `slot` (drain_queue appends only whole, well-formed records).
uint32_t record_length(const QueueSlot& slot) {
  return RecordView(reinterpret_cast<const RecordHeader&>(slot)).slot_count();
}

}  // namespace

DrainPool::DrainPool(LiveArena& arena, uint32_t threads, RecordSink sink, IdleSink idle)
    : arena_(arena), thread_count_(std::max(threads, 1u)), sink_(std::move(sink)), idle_(std::move(idle)) {
  threads_.reserve(thread_count_);
  for (uint32_t i = 0; i < thread_count_; ++i) {
    threads_.emplace_back([this, i] {
      const shim::TerminationSignalsDeferred never_here;  // the report needs these threads going
      run(i);
    });
  }
}

DrainPool::~DrainPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void DrainPool::open(uint16_t launch_id) {
  {
    std::lock_guard lock(mutex_);
    open_.insert(launch_id);
    seen_[launch_id / 64].fetch_and(~(uint64_t{1} << launch_id % 64), std::memory_order_relaxed);
  }
  wake_.notify_all();
}

void DrainPool::make_current(uint16_t launch_id) {
  {
    std::lock_guard lock(mutex_);
    state_.current = launch_id;
    ++state_.generation;
  }
  wake_.notify_all();
}

DrainTotals DrainPool::close_current() {
  std::unique_lock lock(mutex_);
  // The mutex orders what the caller saw (the kernel's end) before each thread's closing pass.
  state_.closing = true;
  acks_ = 0;
  wake_.notify_all();
  acked_.wait(lock, [this] { return acks_ == thread_count_; });
  if (state_.current) open_.erase(*state_.current);
  state_.current.reset();
  state_.closing = false;
  ++state_.generation;
  wake_.notify_all();
  return std::exchange(totals_, {});
}

bool DrainPool::is_open(uint16_t launch_id) {
  std::lock_guard lock(mutex_);
  return open_.contains(launch_id);
}

void DrainPool::run(uint32_t index) {
  std::vector<QueueSlot> scratch;
  Held held;
  DrainTotals mine;
  uint64_t seen_generation = 0;
  uint32_t empty_passes = 0;
  for (;;) {
    State state;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !open_.empty(); });
      if (stopping_) return;
      state = state_;
    }
    if (state.generation != seen_generation) {
      seen_generation = state.generation;
      // The new current launch's held-back records go first, queue by queue in their order; a
      // launch no longer open has nothing more to come.
      for (auto launch = held.begin(); launch != held.end();) {
        if (state.current == launch->first) {
          const uint32_t queue_count = arena_.shape().queue_count;
          for (uint32_t queue = index; queue < queue_count; queue += thread_count_) {
            sink_records(index, queue, launch->second[queue / thread_count_], mine);
          }
          release_held(*launch);
          launch = held.erase(launch);
        } else if (!is_open(launch->first)) {
          release_held(*launch);
          launch = held.erase(launch);
        } else {
          ++launch;
        }
      }
    }
    const uint64_t slots_before = mine.slots;
    pass(index, state, state.closing, held, scratch, mine);
    if (state.closing) {
      settle(index, state.current.has_value(), mine);
      std::unique_lock lock(mutex_);
      merge_into(totals_, std::exchange(mine, {}));
      if (++acks_ == thread_count_) acked_.notify_one();
      wake_.wait(lock, [&] { return stopping_ || state_.generation != state.generation; });
      continue;
    }
    const IdleWork idle_work = state.current && mine.slots == slots_before ? idle(index, mine) : IdleWork::kNone;
    if (mine.slots != slots_before || idle_work == IdleWork::kDone) {
      empty_passes = 0;
    } else if (idle_work == IdleWork::kWaiting || ++empty_passes < kSpinPasses) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(kNap);
    }
  }
}

void DrainPool::pass(uint32_t index, const State& state, bool full, Held& held, std::vector<QueueSlot>& scratch,
                     DrainTotals& totals) {
  thread_local std::vector<QueuePoll> polls;
  const uint32_t queue_count = arena_.shape().queue_count;
  polls.resize((queue_count + thread_count_ - 1) / thread_count_);
  for (uint32_t queue = index; queue < queue_count; queue += thread_count_) {
    QueuePoll& poll = polls[queue / thread_count_];
    if (!full && poll.skip > 0) {
      --poll.skip;
      continue;
    }
    QueueDrain drained = arena_.drain(queue, scratch);
    if (drained.slots == 0) {
      poll.backoff = static_cast<uint8_t>(std::min<uint32_t>(poll.backoff + 1, kMaxQueueBackoff));
      poll.skip = static_cast<uint8_t>((1u << poll.backoff) - 1);
    } else {
      poll.backoff = 0;
    }
    totals.records += drained.records;
    totals.slots += drained.slots;
    if (drained.slots * 2 >= arena_.shape().capacity) totals.queue_ran_full = true;
    if (drained.error && !totals.error) totals.error = std::move(drained.error);
    if (!scratch.empty()) dispatch(index, queue, state, scratch, held, totals);
  }
}

void DrainPool::dispatch(uint32_t index, uint32_t queue, const State& state, std::span<const QueueSlot> records,
                         Held& held, DrainTotals& totals) {
  // Runs of records of one launch: the current one's go to the sink, an open one's are held back.
  size_t begin = 0;
  while (begin < records.size()) {
    const uint16_t launch = launch_of(records[begin]);
    size_t end = begin;
    while (end < records.size() && launch_of(records[end]) == launch) end += record_length(records[end]);
    end = std::min(end, records.size());
    const std::span<const QueueSlot> run = records.subspan(begin, end - begin);
    std::atomic<uint64_t>& seen = seen_[launch / 64];
    const uint64_t bit = uint64_t{1} << launch % 64;
    if ((seen.load(std::memory_order_relaxed) & bit) == 0) seen.fetch_or(bit, std::memory_order_release);
    if (state.current == launch) {
      sink_records(index, queue, run, totals);
    } else if (is_open(launch)) {
      auto found = std::find_if(held.begin(), held.end(), [&](const auto& entry) { return entry.first == launch; });
      if (found == held.end()) {
        held.emplace_back(launch, std::vector<std::vector<QueueSlot>>((arena_.shape().queue_count + thread_count_ - 1) /
                                                                       thread_count_));
        found = std::prev(held.end());
      }
      std::vector<QueueSlot>& kept = found->second[queue / thread_count_];
      kept.insert(kept.end(), run.begin(), run.end());
      held_back_slots_.fetch_add(run.size(), std::memory_order_relaxed);
    } else if (!totals.error) {
      totals.error = "event queue " + std::to_string(queue) + " held records of launch " + std::to_string(launch) +
                     ", which is not in flight: they were dropped";
    }
    begin = end;
  }
}

void DrainPool::release_held(const std::pair<uint16_t, std::vector<std::vector<QueueSlot>>>& launch) {
  uint64_t slots = 0;
  for (const std::vector<QueueSlot>& queue : launch.second) slots += queue.size();
  held_back_slots_.fetch_sub(slots, std::memory_order_relaxed);
}

IdleWork DrainPool::idle(uint32_t index, DrainTotals& totals) {
  if (!idle_) return IdleWork::kNone;
  const auto start = std::chrono::steady_clock::now();
  IdleWork worked = IdleWork::kNone;
  try {
    worked = idle_(index);
  } catch (const std::exception& e) {
    if (!totals.error) totals.error = e.what();
  }
  totals.sink_time += std::chrono::steady_clock::now() - start;
  return worked;
}

// The kernel has ended and its records are all drained. A lock-heavy launch holds most of them back,
// waiting for turns that pass between the threads' workers hundreds of thousands of times: the threads
// go on with that together instead of leaving it to the one thread that ends the launch (engine::settle
// says when a thread stops). A turn handed to a thread that has just stopped is left for the launch's
// end, which applies every held-back record anyway.
void DrainPool::settle(uint32_t index, bool launch_current, DrainTotals& totals) {
  if (!launch_current) return;
  engine::settle(settle_progress_, [&] {
    switch (idle(index, totals)) {
      case IdleWork::kDone:
        return engine::SettleLook::kApplied;
      case IdleWork::kWaiting:
        return engine::SettleLook::kWaiting;
      case IdleWork::kNone:
        break;
    }
    return engine::SettleLook::kNothingHeld;
  });
}

void DrainPool::sink_records(uint32_t index, uint32_t queue, std::span<const QueueSlot> records, DrainTotals& totals) {
  if (records.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  try {
    sink_(index, queue, {reinterpret_cast<const RecordHeader*>(records.data()), records.size()});
  } catch (const std::exception& e) {
    if (!totals.error) totals.error = e.what();
  }
  totals.sink_time += std::chrono::steady_clock::now() - start;
}

}  // namespace barracuda::runtime

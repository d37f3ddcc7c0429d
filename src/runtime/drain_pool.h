#pragma once
// The host's drain threads: they live as long as the queues they drain, sleep while no launch is in
// flight and, while one is, each drains its own share of the queues while the kernels run (the GPU
// waits when a queue is full, so draining cannot wait for a kernel to end).
//
// Thread i takes the queues q with q % threads == i. A block logs into one queue only (it stays on
// its SM), so every record of a block reaches one thread, in order: the engine worker i that
// thread feeds owns the block's state without locks.
//
// Several launches may log at once; the engine checks one at a time, in the order they were issued.
// Records of the current launch go to the sink as they come; records of a later launch still in
// flight are held back per queue, in order, and go to the sink first once it becomes current
// (held_back_slots() says how much: the launch monitor slows the application's launches down when it
// grows large).
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "engine/settle.h"
#include "runtime/live_arena.h"

namespace barracuda::runtime {

// Called on drain thread `thread` with whole records of the current launch from `queue`, in queue order.
using RecordSink = std::function<void(uint32_t thread, uint32_t queue, std::span<const RecordHeader> records)>;
// What an idle sink did.
enum class IdleWork {
  kNone,     // nothing: the thread may nap
  kDone,     // went on with held-back work: look again at once
  kWaiting,  // nothing yet, but it holds work back that another thread's progress will release: the
             // thread keeps looking (yielding) instead of napping, so the hand-over costs no nap
};
// Called on drain thread `thread` when a pass over its queues found nothing new while a launch is
// current: the sink may go on with work it held back (records waiting for another thread's progress).
using IdleSink = std::function<IdleWork(uint32_t thread)>;

struct DrainTotals {
  uint64_t records = 0;
  uint64_t slots = 0;
  std::chrono::nanoseconds sink_time{};  // summed over the threads: time spent inside the sink
  std::optional<std::string> error;      // the first malformed queue, sink exception or stray record
  // A drain found a queue at least half full: the GPU logged faster than the drain kept up.
  bool queue_ran_full = false;
};

class DrainPool {
 public:
  // Starts `threads` (>= 1) threads draining `arena` (which outlives the pool) into `sink`.
  DrainPool(LiveArena& arena, uint32_t threads, RecordSink sink, IdleSink idle = {});
  ~DrainPool();
  DrainPool(const DrainPool&) = delete;
  DrainPool& operator=(const DrainPool&) = delete;

  uint32_t threads() const { return thread_count_; }

  // A launch whose records may arrive from now on: before its kernel can run. Its records are held
  // back until make_current().
  void open(uint16_t launch_id);
  // `launch_id` (open, and no launch current) becomes the current launch: its records go to the sink,
  // the held-back ones first.
  void make_current(uint16_t launch_id);
  // Whether a record of `launch_id` has been drained since it was opened: its grid has registered
  // with its launch slot (device/runtime.cu).
  bool has_records_of(uint16_t launch_id) const {
    return (seen_[launch_id / 64].load(std::memory_order_acquire) & uint64_t{1} << launch_id % 64) != 0;
  }
  // Slots held back now for launches not current yet.
  uint64_t held_back_slots() const { return held_back_slots_.load(std::memory_order_relaxed); }
  // Once the producers of the current launch are done (its kernel has ended): returns after every
  // thread made a full pass over its queues after this call, so every record of the launch reached the
  // sink, and closes the launch. The sink is not called again before the next make_current(). Returns
  // what was drained since the previous close. Before returning, the threads go on together with the
  // work their idle sinks hold back (settle). A malformed queue or a throwing sink stops nothing: the
  // error is returned and draining goes on, so the producers never stall.
  DrainTotals close_current();

 private:
  struct State {
    uint64_t generation = 0;  // bumped by make_current and close_current
    std::optional<uint16_t> current;
    bool closing = false;
  };
  // What one thread holds back: per launch, per queue of its share, the records in order.
  using Held = std::vector<std::pair<uint16_t, std::vector<std::vector<QueueSlot>>>>;

  void run(uint32_t index);
  // One pass over the thread's queues; `full`: look at every queue, even those backing off.
  void pass(uint32_t index, const State& state, bool full, Held& held, std::vector<QueueSlot>& scratch,
            DrainTotals& totals);
  void dispatch(uint32_t index, uint32_t queue, const State& state, std::span<const QueueSlot> records, Held& held,
                DrainTotals& totals);
  void sink_records(uint32_t index, uint32_t queue, std::span<const QueueSlot> records, DrainTotals& totals);
  IdleWork idle(uint32_t index, DrainTotals& totals);
  // After the closing pass: offers the idle sink more work until it holds none, or until no thread is
  // working any more (so none can hand this one more).
  void settle(uint32_t index, bool launch_current, DrainTotals& totals);
  // A launch's held-back records leave the count (sunk or dropped).
  void release_held(const std::pair<uint16_t, std::vector<std::vector<QueueSlot>>>& launch);
  bool is_open(uint16_t launch_id);

  LiveArena& arena_;
  const uint32_t thread_count_;
  RecordSink sink_;
  IdleSink idle_;
  std::atomic<uint64_t> held_back_slots_{0};
  engine::SettleProgress settle_progress_;  // the threads settling an ended launch (engine::settle)
  std::array<std::atomic<uint64_t>, 65536 / 64> seen_{};  // has_records_of, one bit per launch id
  std::mutex mutex_;              // guards everything below
  std::condition_variable wake_;  // a launch opened, the state changed, or stopping
  std::condition_variable acked_;  // a thread finished its closing pass
  State state_;
  std::set<uint16_t> open_;
  uint32_t acks_ = 0;
  bool stopping_ = false;
  DrainTotals totals_;  // merged at each close
  std::vector<std::thread> threads_;
};

}  // namespace barracuda::runtime

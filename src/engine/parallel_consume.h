#pragma once
// Feeding the engine's workers on threads of their own, as a run's drain threads do
// (runtime/drain_pool.h): offline, for `barracuda replay --workers N` and the engine benchmarks.
#include <atomic>
#include <span>
#include <vector>

#include "barracuda/record.h"
#include "engine/engine.h"

namespace barracuda::engine {

// Looks at its held-back work a thread makes, finding no other thread looking at its own, before it
// stops: a turn handed to another thread is taken within microseconds.
inline constexpr uint32_t kSettleLooks = 4096;

// Consumes slots[i] on worker i, each worker on a thread of its own; then every thread keeps taking the
// turns handed to its worker until it holds nothing back, or until it made kSettleLooks looks that found
// no thread inside catch_up (a thread counts as inside before it knows whether there is work: one
// handed a turn may apply records for long before it can say so). What is left, the caller's
// end_launch applies.
void consume_in_parallel(Engine& engine, std::span<const std::vector<RecordHeader>> slots);

// One thread's part of that settling: takes the turns handed to `worker` until it holds nothing back,
// or until kSettleLooks looks found no thread inside (`inside` counts the threads settling together).
void settle_worker(Worker& worker, std::atomic<uint32_t>& inside);

}  // namespace barracuda::engine

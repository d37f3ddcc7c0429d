#pragma once
// Feeding the engine's workers on threads of their own, as a run's drain threads do
// (runtime/drain_pool.h): offline, for `barracuda replay --workers N` and the engine benchmarks.
#include <span>
#include <vector>

#include "barracuda/record.h"
#include "engine/engine.h"
#include "engine/settle.h"

namespace barracuda::engine {

// Consumes slots[i] on worker i, each worker on a thread of its own; then the threads settle the
// launch together (settle_worker). What is left, the caller's end_launch applies.
void consume_in_parallel(Engine& engine, std::span<const std::vector<RecordHeader>> slots);

// settle() for an engine worker.
void settle_worker(Worker& worker, SettleProgress& progress);

}  // namespace barracuda::engine

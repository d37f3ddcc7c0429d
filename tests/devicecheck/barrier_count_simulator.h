#pragma once
// The device counting block barriers instead of logging them (device/barrier_counter.cuh, rule in
// barracuda/barrier_count.h) replayed on the host over a trace: each kBarrier record is taken out and
// applied to the block's state, each exit too (and taken out), and a kBarrierDivergence record goes
// where the device would send one; a memory access of a lane whose barrier count the host was not told yet follows a
// kBarriersPassed record. Records in trace order: one of the orders the GPU may take.
#include <cstdint>
#include <span>
#include <vector>

#include "barracuda/record.h"
#include "engine/launch.h"

namespace barracuda::devicecheck::test {

// The records the host receives from `slots` when the launch counts its barriers on the device.
std::vector<RecordHeader> count_barriers_on_device(const engine::LaunchInfo& launch,
                                                   std::span<const RecordHeader> slots);

}  // namespace barracuda::devicecheck::test

#pragma once
// The device's shared-memory checking (device/shared_checker.cuh) replayed on the host over a
// trace: shared accesses go through check_shared_access (barracuda/shared_check.h) against a per-block
// shadow instead of reaching the host, and each race found becomes the kSharedRace record the device
// would send, where the access would have been logged. Lanes are applied in lane order, records in
// trace order: one of the orders the GPU may take.
#include <cstdint>
#include <span>
#include <vector>

#include "barracuda/record.h"
#include "engine/launch.h"

namespace barracuda::devicecheck::test {

// The records the host receives from a launch whose shared memory the device checks.
std::vector<RecordHeader> simulate_device_shared_check(const engine::LaunchInfo& launch,
                                                       std::span<const RecordHeader> slots);

// The same for global memory (device/global_checker.cuh, rule in barracuda/global_check.h): every global
// access of the launch lies in the one range the device checks, and each race becomes a kGlobalRace.
std::vector<RecordHeader> simulate_device_global_check(const engine::LaunchInfo& launch,
                                                       std::span<const RecordHeader> slots);

}  // namespace barracuda::devicecheck::test

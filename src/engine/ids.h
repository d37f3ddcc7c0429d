#pragma once
// Strong types for the identities and logical times the engine juggles, so that a thread id can
// never be passed where a clock or a site is expected.
#include <cstdint>

namespace barracuda::engine {

// A GPU thread of the current launch: block_id * threads_per_block + warp * 32 + lane, where
// threads_per_block is rounded up to whole warps (LaunchInfo::padded_threads_per_block).
enum class ThreadId : uint32_t {};
// Logical time of one thread. Clocks of a block are lifted to a common value at each barrier
// (see BlockState), so a single number orders a thread's events before/after every barrier.
enum class Clock : uint32_t {};
// Index into the site table of the instrumented module (RecordHeader::site_id).
enum class SiteId : uint32_t {};
// Linear block index in the grid (RecordHeader::block_id).
enum class BlockId : uint32_t {};
// Issue number of a launch in the application, unique over the process and counted from 1 (0: not
// known); RecordHeader::launch_id is its low 16 bits' stand-in and wraps.
enum class LaunchSeq : uint64_t {};
// The CUDA device ordinal a launch ran on (CUdevice); races between launches on two devices are
// "inter-device", and only system-scoped strong accesses cover both.
enum class DeviceId : uint32_t {};
// Engine workers are numbered; a location's reads are kept per worker that made them.
using WorkerIndex = uint16_t;

constexpr uint32_t raw(ThreadId t) { return static_cast<uint32_t>(t); }
constexpr uint32_t raw(Clock c) { return static_cast<uint32_t>(c); }
constexpr uint32_t raw(SiteId s) { return static_cast<uint32_t>(s); }
constexpr uint32_t raw(BlockId b) { return static_cast<uint32_t>(b); }
constexpr uint64_t raw(LaunchSeq l) { return static_cast<uint64_t>(l); }
constexpr uint32_t raw(DeviceId d) { return static_cast<uint32_t>(d); }
constexpr Clock next(Clock c) { return static_cast<Clock>(raw(c) + 1); }

}  // namespace barracuda::engine

#pragma once
// What the engine reports, as plain data: races (deduplicated), diagnostics, counters. Rendering
// them (text, JSON, SARIF) is the report component's job.
#include <cstdint>
#include <optional>
#include <string>

#include "barracuda/dim3.h"

#include "barracuda/race_rule.h"
#include "barracuda/record.h"
#include "engine/ids.h"

namespace barracuda::engine {

// Named by the rule the host and the device share (barracuda/race_rule.h).
using barracuda::Hazard;
using barracuda::RaceClass;

// A grid launched from the device (dynamic parallelism, child_grids.h): its blocks' ids start at
// `first_block`, after the host-launched grid's.
struct ChildGrid {
  BlockId first_block{};
  Dim3 grid;
  Dim3 block;
  friend bool operator==(const ChildGrid&, const ChildGrid&) = default;
};

// A thread as the report shows it: the caller turns `thread` into threadIdx with the block dims (of
// `child` when set: `block` is then a block of that child grid, counted from its first_block).
struct ThreadCoord {
  BlockId block{};
  uint32_t thread = 0;  // linear thread index within the block
  std::optional<ChildGrid> child;
  friend bool operator==(const ThreadCoord&, const ThreadCoord&) = default;
};

// The spin that the unfenced view (Knowledge::unfenced) relies on: a read of a legacy atomic (no
// .sem) that found a release on its location and was followed by no acquire fence, or by one of too
// narrow a scope. Reported with an "unfenced acquire" warning.
struct UnfencedOrigin {
  SiteId flag_site{};
  MemoryScope needed = MemoryScope::kGpu;  // the atomic's scope: the fence the spin lacks
  bool narrow_fence = false;               // a fence followed, of scope `fence` (narrower than needed)
  MemoryScope fence = MemoryScope::kCta;
  bool valid = false;
  friend bool operator==(const UnfencedOrigin&, const UnfencedOrigin&) = default;
};

// A flag that handed the racing pair over without synchronising it: the earlier access's thread
// wrote the flag after that access (a relaxed, volatile or atomic write, no release), and the later
// access's thread, or a block-mate it is ordered after, read the flag's new value (a relaxed,
// volatile or atomic read, no acquire). A fence before the write and one after the read would make
// them a release and an acquire and order the pair (`barracuda harden` proposes them).
struct FlagHandOff {
  SiteId write_site{};
  SiteId read_site{};
  uint64_t address = 0;
  bool valid = false;
  friend bool operator==(const FlagHandOff&, const FlagHandOff&) = default;
};

struct Race {
  std::string kernel;
  // Set when the earlier access belongs to another, concurrent launch (a cross-launch race): that
  // launch's kernel, whose grid first_thread is given in. Empty when both accesses are in `kernel`.
  std::string first_kernel;
  RaceClass race_class{};
  Hazard hazard{};
  MemorySpace space{};
  // Of an atomic-plain pair: which access was the atomic, whether the plain one wrote (other hazards
  // name both accesses' kinds themselves).
  AtomicPlainSides sides{true, true};
  SiteId first_site{};  // the earlier access
  SiteId second_site{};
  ThreadCoord first_thread;
  ThreadCoord second_thread;
  uint64_t address = 0;  // first byte both accesses touched
  uint32_t size = 0;     // bytes of the second access
  uint64_t count = 0;    // dynamic occurrences folded into this entry
  // Write-write between two stores that, in every launch it occurred in, only ever stored one and the
  // same value (store_values.h): the class "same-value write-write".
  bool same_value = false;
  // The device compared the two stores' values itself (a race it sent): `same_value` is its verdict
  // for this pair, which the launch's per-site values (StoreValues: only the sites of the pairs the
  // device sent) must not turn into a warning; a racing read of either store still makes it a race.
  // Kept only while every occurrence of the entry says so.
  bool value_from_device = false;
  // The pair would be ordered had a spin on a legacy atomic (`while (atomicExch(&flag, 0) == 0);`)
  // been followed by an acquire fence of the flag's scope (there was none, or a narrower one): the
  // warning class "unfenced acquire". `unfenced` names that spin. Kept only while every occurrence
  // of the entry says so.
  bool unfenced_acquire = false;
  UnfencedOrigin unfenced;
  // Set on plain races a flag handed over without fences (first occurrence that found one).
  FlagHandOff flag;
  // The two accesses' threads and clocks: the end of the launch names the flag of a race the flag's
  // write was checked after (LateFlagWrites::name_flags).
  ThreadId first_id{};
  ThreadId second_id{};
  Clock first_clock{};
  Clock second_clock{};
  // The launch the entry was first seen in (set when a launch's races are merged) and its device;
  // `first_device`: the earlier access's (another one only for an inter-device race).
  LaunchSeq launch{};
  DeviceId device{};
  DeviceId first_device{};
  // The entry's place in the order the engine first logged races (0, 1, 2, ... over the run): lets the
  // runtime tell the races a launch added (runtime/race_allocations.h).
  uint64_t serial = 0;
};

enum class DiagnosticKind : uint8_t {
  kBarrierDivergence,  // a block barrier completed while some live lanes of the block never reached it
  kRedundantBarrier,   // warning: a barrier that ordered no conflicting pair of accesses in the launch
  kMalformedRecord,    // a record the engine could not decode; it was skipped
};

struct Diagnostic {
  std::string kernel;
  DiagnosticKind kind{};
  SiteId site{};   // barrier site (unused for malformed records)
  BlockId block{};  // first block seen with the problem
  std::string message;
  uint64_t count = 0;
  LaunchSeq launch{};  // the launch it was first seen in
};

struct EngineStats {
  uint64_t records = 0;
  uint64_t thread_accesses = 0;    // lane accesses checked against shadow memory
  uint64_t repeated_reads = 0;     // of those, same-epoch re-reads skipped (CheckedRead)
  uint64_t ignored_accesses = 0;   // local/const/param lane accesses: never reported
  uint64_t malformed_records = 0;
  uint64_t unsupported_records = 0;  // cluster barriers: their cross-block part is not modelled
  uint64_t dynamic_races = 0;      // before deduplication
  // Most blocks any one worker held state for at once (summed over workers): a block's state
  // (BlockState: ~57 bytes per thread) lives from its first record to its last warp's exit.
  uint64_t peak_resident_blocks = 0;
  // Most records any one worker held back at once waiting for their turn (summed over workers): a
  // lock-heavy launch can hold most of its records (tens of GB for cub_radix_sort at --scale 0.1).
  uint64_t peak_held_back_records = 0;
  // Records still held back once every ticket of their launch had been applied, applied then in warp
  // order by one thread (Engine::apply_deferred): what waited for a turn that never came.
  uint64_t records_applied_at_launch_end = 0;
  // Lane writes into LaunchInfo::unlogged_load_ranges (an out-of-bounds write, most likely): races
  // with the loads not logged there go unseen.
  uint64_t writes_into_unlogged_loads = 0;
  // Grids launched from the device that ran unchecked (the launch ran out of block ids for them).
  uint64_t unchecked_child_grids = 0;
};

}  // namespace barracuda::engine

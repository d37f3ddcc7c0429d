#pragma once
// The race report as plain data. The engine fills it, suppressions and baselines annotate it, and the
// renderers (text, JSON, SARIF) only read it. Counts that follow from the lists (unique races, dynamic
// races, warnings) are not stored: see report/summary_counts.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "barracuda/record.h"
#include "options/warp_model.h"
#include "report/statistics.h"

namespace barracuda::report {

// A block or thread index within a launch (what barracuda::Dim3 gives the extent of).
struct Coord3 {
  uint32_t x = 0;
  uint32_t y = 0;
  uint32_t z = 0;
  friend bool operator==(const Coord3&, const Coord3&) = default;
};

// A position in CUDA source (from -lineinfo). line 0 means "not known": the kernel was built without
// line info and only the PTX line identifies the site.
struct SourceLocation {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
  bool known() const { return line != 0; }
  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

// One level of an inlining chain: the level below it was inlined into `function` at `location`.
struct InlinedFrame {
  std::string function;
  SourceLocation location;
  friend bool operator==(const InlinedFrame&, const InlinedFrame&) = default;
};

// The instruction that performed an access: innermost function first, then where it was inlined.
struct Site {
  std::string function;
  uint32_t ptx_line = 0;
  SourceLocation source;
  std::vector<InlinedFrame> inlined_at;
  friend bool operator==(const Site&, const Site&) = default;
};

// A grid launched from the device (dynamic parallelism): its shape.
struct ChildGrid {
  Coord3 grid;
  Coord3 block;
  friend bool operator==(const ChildGrid&, const ChildGrid&) = default;
};

struct ThreadCoordinates {
  Coord3 block;
  Coord3 thread;
  uint32_t warp = 0;  // warp index within the block
  uint32_t lane = 0;
  // Set when the thread ran in a child grid launched from the device: `block` is its block there.
  std::optional<ChildGrid> child_grid;
  friend bool operator==(const ThreadCoordinates&, const ThreadCoordinates&) = default;
};

// What made the memory a race's address lies in: ThreadSanitizer's "Location is heap block of size N".
enum class AllocationKind {
  kNone,            // a global address in no allocation barracuda saw (memory from an API it does not track)
  kMemAlloc,        // cuMemAlloc (cudaMalloc)
  kMemAllocPitch,   // cuMemAllocPitch (cudaMallocPitch, cudaMalloc3D)
  kMemAllocManaged, // cuMemAllocManaged (cudaMallocManaged)
  kMemAllocAsync,   // cuMemAllocAsync, cuMemAllocFromPoolAsync (cudaMallocAsync)
  kMemMap,          // a virtual address range mapped with cuMemMap (memory from cuMemCreate)
  kGlobalVariable,  // a module's __device__ variable
  kShared,          // a block's shared memory
};

// The allocation a race's address lay in when the race was first seen.
struct Allocation {
  AllocationKind kind = AllocationKind::kNone;
  uint64_t base = 0;    // first byte of the allocation (0 for kNone and kShared)
  uint64_t size = 0;    // its bytes (0 for kNone and kShared)
  uint64_t offset = 0;  // of the racing address from base (kShared: in the block's shared memory)
  std::string symbol;   // kGlobalVariable: the variable's name (demangled)
  Coord3 block;           // kShared: the block whose shared memory it is
  // The host call that made it, innermost frame first ("main+0x1c (app)", "app+0x11a4" where the object
  // exports no name for it); empty where it was not taken (variables, shared memory).
  std::vector<std::string> allocated_by;
  friend bool operator==(const Allocation&, const Allocation&) = default;
};

// An access whose address derives from a kernel parameter (`p[i]` where `p` is a pointer the kernel
// received) but lies outside the allocation that pointer points into: an out-of-bounds access through
// that parameter (a memory error racecheck and memcheck would report apart, if at all).
struct OutOfBounds {
  uint32_t parameter = 0;      // index in the kernel's parameter list, 0 first
  std::string parameter_type;  // from the kernel's demangled signature ("const int*"); empty if unknown
  Allocation pointee;          // what the parameter points into; offset: of the parameter's value
  friend bool operator==(const OutOfBounds&, const OutOfBounds&) = default;
};

// What an access did (engine::AccessKind is the engine's fuller description of one).
enum class AccessOperation { kRead, kWrite, kAtomic };

struct Access {
  Site site;
  ThreadCoordinates thread;
  AccessOperation kind = AccessOperation::kRead;
  MemorySemantics semantics = MemorySemantics::kWeak;
  MemoryScope scope = MemoryScope::kSystem;  // meaningful only for strong (non-weak) accesses
  std::optional<OutOfBounds> out_of_bounds;
  std::optional<uint32_t> device;  // the GPU (CUDA device ordinal) it ran on; absent where not known
  friend bool operator==(const Access&, const Access&) = default;
};

// A race that a spin on an atomic would have ordered, had an acquire fence followed it (the warning
// class "unfenced acquire"): the spin's atomic and the fence it lacks.
struct UnfencedAcquire {
  Site flag;                  // the atomic the thread spun on (while (atomicExch(&flag, 0) == 0);)
  std::string missing_fence;  // e.g. "__threadfence() after the spin (there is none)"
  friend bool operator==(const UnfencedAcquire&, const UnfencedAcquire&) = default;
};

// A flag that handed the racing pair over with no fence on either side (message passing through a
// relaxed, volatile or atomic flag): the earlier access's thread wrote it after that access, the later
// one's thread (or a block-mate ordered after it) read it before. Still a race; a fence before the
// write and one after the read would make it a release and an acquire (`barracuda harden`).
struct FlagHandOff {
  Site write;  // the flag's write
  Site read;   // the read that found it set
  uint64_t address = 0;
  friend bool operator==(const FlagHandOff&, const FlagHandOff&) = default;
};

enum class RaceClass {
  kIntraWarp,       // two lanes of one warp, unordered under the chosen warp model
  kInterWarp,       // two warps of one block
  kInterBlock,      // two blocks of the grid
  kBranchOrdering,  // lockstep model: the two sides of a divergent branch
  kScoped,          // strong accesses whose scope does not cover both threads (e.g. .cta atomics across blocks)
  kInterDevice,     // kernels on two GPUs of one process
};

// Named from `previous` to `current`: kReadAfterWrite means the earlier access wrote and the later read.
enum class Hazard { kReadAfterWrite, kWriteAfterRead, kWriteAfterWrite, kAtomicPlain };

struct Race {
  RaceClass race_class = RaceClass::kInterBlock;
  Hazard hazard = Hazard::kWriteAfterWrite;
  MemorySpace space = MemorySpace::kGlobal;
  MemoryScope scope = MemoryScope::kSystem;  // the narrowest scope involved (what made a scoped race)
  uint64_t address = 0;
  uint32_t size = 0;  // bytes of the overlapping accesses
  std::string kernel;
  uint32_t launch_index = 0;  // the launch it was first seen in: 0-based over the run's checked launches
  Access current;             // the access that detected the race
  Access previous;            // the earlier access it conflicts with
  uint64_t dynamic_count = 1;  // how often this pair of sites raced in the run
  bool known = false;          // its fingerprint is in the baseline: not a new finding
  uint32_t pid = 0;  // merged reports only: the process it was first seen in (Report::processes)
  // `barracuda run --explore` only: the perturb seed of the first run that saw it (0: none), which
  // `--perturb SEED` runs again.
  uint64_t perturb_seed = 0;
  // Write-write between two stores that only ever wrote the same value (a flag many threads set): the
  // class "same-value write-write", a warning, not counted as a race (option same_value_races).
  bool same_value = false;
  // Set: the pair would be ordered had the spin it names been followed by an acquire fence (GPUs
  // honour the spin's control dependency): the class "unfenced acquire", a warning, not counted as
  // a race (option unfenced_acquire_races).
  std::optional<UnfencedAcquire> unfenced_acquire;
  std::optional<FlagHandOff> flag_hand_off;
  // Where the address lies; absent where nothing tracked allocations (`barracuda replay`, reports
  // written before barracuda did).
  std::optional<Allocation> allocation;
  friend bool operator==(const Race&, const Race&) = default;
};

enum class DiagnosticKind {
  kBarrierDivergence,  // a barrier reached by some but not all threads it waits for (error)
  kRedundantBarrier,   // a barrier that ordered no conflicting accesses in the run (warning)
};

struct Diagnostic {
  DiagnosticKind kind = DiagnosticKind::kBarrierDivergence;
  std::string kernel;
  uint32_t launch_index = 0;
  Site site;
  ThreadCoordinates thread;  // a thread that reached the barrier (divergence) or its first user
  std::string detail;        // e.g. "14 of 32 lanes of warp 3 arrived"
  uint32_t pid = 0;          // merged reports only: the process it was first seen in
  uint64_t perturb_seed = 0;  // `barracuda run --explore` only: the seed of the first run that saw it
  friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

struct RunInfo {
  std::string tool_version;
  std::vector<std::string> command_line;
  std::string device_name;
  std::string start_time;  // ISO 8601 UTC, e.g. 2026-11-22T21:00:00Z
  WarpModel warp_model = WarpModel::kIndependent;
  uint32_t pid = 0;  // the process that wrote the report; 0 in a report merged over several
  friend bool operator==(const RunInfo&, const RunInfo&) = default;
};

// One process of a run whose reports were merged (report/merge.h): each process under the tool writes
// its own report, `barracuda run` merges them, and every finding names the process it came from.
struct ProcessInfo {
  uint32_t pid = 0;
  std::vector<std::string> command_line;
  friend bool operator==(const ProcessInfo&, const ProcessInfo&) = default;
};

struct SkippedKernel {
  std::string kernel;
  std::string reason;  // e.g. "no sm_90 PTX in the fat binary (cuBLAS)"
  friend bool operator==(const SkippedKernel&, const SkippedKernel&) = default;
};

// Memory instructions of one kind that checked kernels held but that were not logged (ldmatrix,
// wmma.load, surfaces, tensor copies): races through them were not looked for.
struct UnloggedInstructions {
  std::string kind;
  std::vector<std::string> kernels;  // the checked kernels that hold them
  friend bool operator==(const UnloggedInstructions&, const UnloggedInstructions&) = default;
};

struct Summary {
  uint64_t kernels_instrumented = 0;
  // Of those, the kernels checked through their machine code (the SASS back end: modules without PTX).
  std::vector<std::string> kernels_machine_code;
  // Libraries whose own kernels are left unchecked by design (NCCL: its collectives' kernels run their
  // own protocols between GPUs), with what was left: not an incomplete analysis.
  std::vector<std::string> library_code;
  std::vector<SkippedKernel> kernels_skipped;
  std::vector<UnloggedInstructions> unlogged_instructions;
  uint64_t launches = 0;
  uint64_t launches_filtered = 0;  // of those, run unchecked as the launch filters asked (launch_sample...)
  uint64_t events = 0;
  uint64_t dropped_events = 0;
  uint64_t suppressed_races = 0;  // unique races removed by the suppressions file
  friend bool operator==(const Summary&, const Summary&) = default;
};

struct Report {
  RunInfo run;
  Summary summary;
  std::vector<Race> races;
  std::vector<Diagnostic> diagnostics;
  std::optional<Statistics> statistics;  // absent from reports written before barracuda measured them
  std::vector<ProcessInfo> processes;    // merged reports only: every process that wrote a report
  friend bool operator==(const Report&, const Report&) = default;
};

}  // namespace barracuda::report

#include "report/sarif_rules.h"

#include <array>

#include "report/names.h"

namespace barracuda::report {
namespace {

// Order: the RaceClass enumerators, then the DiagnosticKind enumerators.
constexpr std::array<SarifRule, 10> kRules{{
    {"race/intra-warp", "IntraWarpRace", "Data race between two lanes of one warp",
     "Two threads of the same warp accessed the same memory, at least one wrote, and nothing ordered the "
     "accesses. Since Volta the lanes of a warp are scheduled independently: without __syncwarp() (or a "
     "block barrier, or matching atomics/fences) their order is not guaranteed.",
     "error"},
    {"race/inter-warp", "InterWarpRace", "Data race between two warps of one block",
     "Two threads of different warps of the same block accessed the same memory, at least one wrote, with no "
     "__syncthreads() or acquire/release synchronization between them.",
     "error"},
    {"race/inter-block", "InterBlockRace", "Data race between two blocks",
     "Threads of different blocks accessed the same global memory, at least one wrote, with no "
     "synchronization at gpu scope between them (a __threadfence() plus atomic flag, cuda::atomic_ref "
     "acquire/release, or a grid sync). Block barriers do not order different blocks.",
     "error"},
    {"race/branch-ordering", "BranchOrderingRace", "Data race between the two sides of a divergent branch",
     "Under the lockstep warp model, threads of one warp on the two sides of a divergent branch accessed the "
     "same memory and at least one wrote; the hardware does not define which side runs first.",
     "error"},
    {"race/scoped", "ScopedRace", "Data race through synchronization of too narrow a scope",
     "The accesses are atomics, fences or acquire/release operations, but their scope does not include both "
     "threads (for example a .cta atomic or __threadfence_block() used between blocks), so they neither "
     "synchronize nor count as morally strong. Widen the scope (.gpu, cuda::thread_scope_device).",
     "error"},
    {"race/inter-device", "InterDeviceRace", "Data race between kernels on two GPUs",
     "Kernels running on two GPUs of one process accessed the same memory (peer or managed memory), at least one "
     "wrote, and nothing ordered the two launches: no event recorded after one and waited for before the other, "
     "no synchronisation of the first kernel's device by the host before the second was launched. Device-scope "
     "atomics and fences do not order two GPUs; use system scope (atomicAdd_system, cuda::thread_scope_system).",
     "error"},
    {"barrier-divergence", "BarrierDivergence", "Barrier not reached by all the threads it waits for",
     "A __syncthreads()/bar.sync was executed by some but not all threads of the block (or __syncwarp() by "
     "some but not all lanes of its mask). Behaviour is undefined: the kernel may hang or the barrier may "
     "order nothing.",
     "error"},
    {"redundant-barrier", "RedundantBarrier", "Barrier ordered no conflicting accesses in this run",
     "No pair of conflicting accesses was separated by this barrier during the run. It may be unnecessary "
     "(a performance cost) or the run may not have exercised the data it protects.",
     "warning"},
    {"same-value-write-write", "SameValueWriteWrite", "Unordered stores that only ever wrote the same value",
     "Two stores not ordered by synchronization wrote the same location, but each only ever stored the same "
     "value (many threads setting a flag) and no read observed the location between them: benign on GPUs in "
     "practice, yet a data race in the C++ model. Reported as a race with same_value_races=1.",
     "warning"},
    {"unfenced-acquire", "UnfencedAcquire", "Hand-off through a spin on an atomic with no acquire fence after it",
     "The earlier access was published with a release (a fence before the flag's atomic or store), and the "
     "later thread waited for the flag by spinning on an atomic, but no acquire fence of the flag's scope "
     "followed the spin (none, or only __threadfence_block() for a flag set by another block). The PTX memory "
     "model gives no ordering there; GPUs honour the spin's control dependency in practice and legacy code "
     "relies on it. Add the missing __threadfence() after the spin. Reported as a race with "
     "unfenced_acquire_races=1.",
     "warning"},
}};

constexpr size_t kSameValueRule = kRules.size() - 2;
constexpr size_t kUnfencedAcquireRule = kRules.size() - 1;

constexpr size_t kFirstDiagnosticRule = kRaceClassNames.size();

// The index functions below rely on the enumerators' order matching the table's.
static_assert([] {
  for (const auto& entry : kRaceClassNames) {
    const std::string_view id = kRules[static_cast<size_t>(entry.value)].id;
    if (!id.starts_with("race/") || id.substr(5) != entry.name) return false;
  }
  for (const auto& entry : kDiagnosticKindNames) {
    if (kRules[kFirstDiagnosticRule + static_cast<size_t>(entry.value)].id != entry.name) return false;
  }
  return true;
}());

}  // namespace

std::span<const SarifRule> sarif_rules() { return kRules; }

size_t sarif_rule_index(RaceClass race_class) { return static_cast<size_t>(race_class); }

size_t sarif_rule_index(DiagnosticKind kind) { return kFirstDiagnosticRule + static_cast<size_t>(kind); }

size_t sarif_rule_index(const Race& race) {
  if (race.same_value) return kSameValueRule;
  return race.unfenced_acquire ? kUnfencedAcquireRule : sarif_rule_index(race.race_class);
}

}  // namespace barracuda::report

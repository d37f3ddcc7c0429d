#pragma once
// Schedule perturbation (option perturb=SEED, after GKLEE-CD's delay-bounded exploration): before each
// synchronising instruction of the module's functions (atomics and reductions, fences, block and warp
// barriers, spin reads), some warps sleep for a while, chosen per (block, warp, instruction) by a hash
// with the seed. The seed is read at run time from a global the host sets after loading the module
// (BARRACUDA_PERTURB_SEED_SYMBOL), so one compiled module serves every seed (`--explore 24` compiles
// once, not 24 times). One run sees one interleaving; runs with other seeds see others (a block that
// reached its atomic first natively now reaches it last), so races and divergences that need a
// particular order show up in some of them (`barracuda run --explore N`). The delay is bounded (under 34 us per
// point, at one point in four) and what the program computes is unchanged unless it depends on
// timing. Runs before the instrumentation passes: the runtime's own calls are never delayed.
#include <cstdint>
#include <optional>
#include <string>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

// Rewrites the module; returns how many delay points it added, or why it added none (nanosleep needs
// `.target sm_70` and ISA 6.3: older modules are left alone).
struct PerturbationResult {
  uint64_t delay_points = 0;
  std::optional<std::string> declined;
};
PerturbationResult perturb_schedule(Module& module);

}  // namespace barracuda::ptx::passes

#pragma once
// What `barracuda harden` proposes for a race (after Sorensen & Donaldson, PLDI'16): the fence or the
// scope the PTX memory model needs, as a change at a source line. Only the causes a fence or a scope
// can remove get a fix:
//  - an unfenced acquire (a spin on an atomic with no acquire fence after it): the fence the engine
//    found missing, inserted after the spin;
//  - a scoped race (strong accesses whose scope does not cover both threads, e.g. atomicAdd_block from
//    two blocks): each access whose scope is too narrow, widened to the one that covers both threads;
//  - a scoped race between plain accesses (message passing through __threadfence_block() across
//    blocks: what orders them has too narrow a scope, and the report does not name those fences): a
//    fence of the covering scope after the earlier access and before the later one.
//  - a race a flag handed over with no fence on either side (message passing through a relaxed,
//    volatile or atomic flag, FlagHandOff): a fence of the covering scope before the flag's write and
//    one after its read.
// Other races get the reason no fence fixes them: plain accesses of unsynchronised threads are not
// ordered by any fence one of them executes.
#include <optional>
#include <string>
#include <vector>

#include "report/model.h"

namespace barracuda::report {

struct FenceFix {
  enum class Kind : uint8_t {
    kFenceAfter,   // a fence of `scope` after the instruction at `site` (what option harden inserts)
    kFenceBefore,  // a fence of `scope` before the instruction at `site`
    kWidenScope,   // the access at `site` given `scope`
  };
  Kind kind = Kind::kFenceAfter;
  MemoryScope scope = MemoryScope::kGpu;
  Site site;           // the access to change, or the spin a fence goes after
  std::string change;  // one sentence: what to do at `site`
  // Source text to insert on a new line after (kFenceAfter) or before (kFenceBefore) the site's line.
  std::optional<std::string> inserted_line;
  friend bool operator==(const FenceFix&, const FenceFix&) = default;
};

struct RaceHardening {
  std::vector<FenceFix> fixes;
  std::string no_fix_reason;  // why no fence or scope fixes the race (set when `fixes` is empty)
};

RaceHardening harden_race(const Race& race);

}  // namespace barracuda::report

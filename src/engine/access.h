#pragma once
// One memory access as the shadow memory remembers it.
#include <cstdint>

#include "barracuda/record.h"
#include "engine/ids.h"

namespace barracuda::engine {

// The properties of an access that decide whether two accesses race.
struct AccessKind {
  uint16_t write : 1;   // store, atomic, reduction
  uint16_t read : 1;    // load, atomic
  uint16_t atomic : 1;  // atom/red: conflicts with plain accesses as "atomic-plain"
  uint16_t strong : 1;  // relaxed/acquire/release/volatile/atomic: may be morally strong with another
  uint16_t scope : 2;   // MemoryScope of a strong access
  uint16_t unused : 10;

  MemoryScope memory_scope() const { return static_cast<MemoryScope>(scope); }
};
static_assert(sizeof(AccessKind) == 2, "AccessKind packs into the shadow cell's 16-bit field");

// An access: who (thread), when (that thread's clock), where in the code (site), what (kind).
struct Stamp {
  ThreadId thread{};
  Clock clock{};
  SiteId site{};
  AccessKind kind{};
};

}  // namespace barracuda::engine

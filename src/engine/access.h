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
  uint16_t volatile_store : 1;  // st.volatile (strong or not)
  uint16_t volatile_load : 1;   // ld.volatile
  uint16_t spin_read : 1;       // an ld.volatile whose value decides whether its loop goes on (kFlagSpinRead)
  // A read kept past a strong write it raced with (shadow_cell.cpp): that race is reported, and later
  // strong writes pass it by; a plain write still checks it.
  uint16_t raced_strong_write : 1;
  // An access to a block's shared memory (keeps_write in shadow_cell.h).
  uint16_t shared_space : 1;
  uint16_t unused : 5;

  MemoryScope memory_scope() const { return static_cast<MemoryScope>(scope); }
  // A volatile store and a volatile load of the same location: morally strong (relaxed.sys both in the
  // PTX model) exactly when the load is a spin read, whatever `strong` says of either. The spin waits
  // for the whole value the store writes; a volatile read that reads once and moves on may be reading
  // data a lock protects, and races (docs/engine.md, "volatile is not atomic").
  bool volatile_pair_with(const AccessKind& other) const {
    return (volatile_store && other.volatile_load) || (volatile_load && other.volatile_store);
  }
  // Of a volatile pair: whether its load is a spin read (then the pair is morally strong at .sys).
  bool spins_with(const AccessKind& other) const { return spin_read || other.spin_read; }
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

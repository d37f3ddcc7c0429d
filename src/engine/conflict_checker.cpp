#include "engine/conflict_checker.h"

namespace barracuda::engine {

Hazard hazard_between(const AccessKind& earlier, const AccessKind& current) {
  return barracuda::hazard_between(earlier.write, earlier.atomic, current.write, current.atomic);
}

bool ConflictChecker::covers(MemoryScope scope, ThreadId a, ThreadId b) const {
  const BlockId block_a = block_of(a), block_b = block_of(b);
  const bool by_cluster = scope == MemoryScope::kCluster;  // cluster_of divides: only where it is read
  return scope_covers(scope, raw(block_a), by_cluster ? launch_.cluster_of(block_a) : 0, raw(block_b),
                      by_cluster ? launch_.cluster_of(block_b) : 0);
}

RaceClass ConflictChecker::classify(const Stamp& earlier) const {
  const uint32_t per_block = launch_.padded_threads_per_block();
  const RaceClass by_threads = race_class_between(raw(block_of(earlier.thread)), raw(earlier.thread) % per_block,
                                                  raw(block_.id()), local_);
  if (by_threads != RaceClass::kIntraWarp || launch_.warp_model == WarpModel::kIndependent) return by_threads;
  // Lockstep: lanes of one instruction race "intra-warp"; otherwise the two accesses sit on two
  // paths of a divergent branch.
  return same_instruction(earlier) ? RaceClass::kIntraWarp : RaceClass::kBranchOrdering;
}

bool ConflictChecker::same_instruction(const Stamp& earlier) const {
  // Lanes of this record already applied left exactly this stamp (same site, same clock).
  if (!block_.contains(earlier.thread) || earlier.site != stamp_.site) return false;
  const uint32_t other = raw(earlier.thread) - raw(block_.thread_id(0));
  const uint32_t lane = other % kWarpSize;
  return other / kWarpSize == local_ / kWarpSize && (record_lanes_done_ >> lane & 1u) &&
         record_clocks_[lane] == earlier.clock;
}

void ConflictChecker::conflict(const Stamp& earlier, uint32_t byte) {
  const Stamp& current = stamp_;
  // Lanes of one store that wrote the same value to one address: no observable race.
  if ((record_.flags & kFlagSameValue) && earlier.kind.write && current.kind.write && same_instruction(earlier)) return;
  if (block_.knows(local_, earlier.thread, earlier.clock)) return;
  bool scoped;
  bool unfenced = false;
  // A volatile store and a volatile load: morally strong (.sys covers every thread) exactly when the
  // load is a spin read, whatever their `strong` bits say.
  const bool volatile_pair = earlier.kind.volatile_pair_with(current.kind);
  if (volatile_pair && earlier.kind.spins_with(current.kind)) return;
  if (earlier.kind.strong && current.kind.strong && !volatile_pair) {
    // Morally strong: each access's scope includes the other thread. Such pairs never race.
    if (covers(earlier.kind.memory_scope(), earlier.thread, current.thread) &&
        covers(current.kind.memory_scope(), current.thread, earlier.thread)) {
      return;
    }
    scoped = true;
  } else {
    scoped = block_.knows_ignoring_scopes(local_, earlier.thread, earlier.clock);
    unfenced = block_.knows_assuming_spins(local_, earlier.thread, earlier.clock);
  }
  Race race;
  race.race_class = scoped ? RaceClass::kScoped : classify(earlier);
  race.hazard = hazard_between(earlier.kind, current.kind);
  race.space = record_.space;
  race.first_site = earlier.site;
  race.second_site = current.site;
  const uint32_t per_block = launch_.padded_threads_per_block();
  race.first_thread = {block_of(earlier.thread), raw(earlier.thread) % per_block};
  race.second_thread = {block_.id(), local_};
  race.address = word_address_ + byte;
  race.size = record_.size;
  race.unfenced_acquire = unfenced;
  if (unfenced) race.unfenced = block_.thread(local_).knowledge.origin;
  races_.add(race);
}

}  // namespace barracuda::engine

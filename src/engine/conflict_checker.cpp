#include "engine/conflict_checker.h"

#include "engine/distributed_shared.h"

namespace barracuda::engine {

Hazard hazard_between(const AccessKind& earlier, const AccessKind& current) {
  return barracuda::hazard_between(earlier.write, earlier.atomic, current.write, current.atomic);
}

AtomicPlainSides atomic_plain_sides(const AccessKind& earlier, const AccessKind& current) {
  return barracuda::atomic_plain_sides(access_op(earlier.write, earlier.atomic), access_op(current.write, current.atomic));
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

namespace {

// A write and a read that could be a flag's hand-off, were they a release and an acquire: both
// relaxed, volatile or atomic (a volatile write is `strong` only after a fence).
bool flag_pair(const AccessKind& write, const AccessKind& read) {
  return write.write && read.read && (write.strong || write.volatile_store) && (read.strong || read.volatile_load);
}

// Dynamic occurrences of a race entry that look for a flag: enough for every thread pair a spin
// typically hands over, without scanning a block's observations on every occurrence of a hot race.
constexpr uint64_t kOccurrencesLookingForAFlag = 8;

}  // namespace

void ConflictChecker::note_flag_read(ThreadId writer, Clock writer_clock, SiteId write_site, uint32_t byte) {
  block_.flags().note(local_, block_.padded_threads(), stamp_.kind.atomic ? FlagRead::kAtomic : FlagRead::kLoad,
                      {writer, writer_clock, stamp_.clock, write_site, stamp_.site, word_address_ + byte});
}

void ConflictChecker::note_late_flag_write(const Stamp& earlier, uint32_t byte) {
  const FlagObservation write{stamp_.thread, stamp_.clock, earlier.clock, stamp_.site, earlier.site, word_address_ + byte};
  // A spin's reads, checked against this write one by one before its list is compacted: one entry.
  if (!late_flags_.empty() && late_flags_.back().reader == earlier.thread &&
      late_flags_.back().observation.writer == write.writer && late_flags_.back().observation.address == write.address) {
    late_flags_.back().observation = write;
    return;
  }
  if (late_flags_.size() < kMaxLateFlagWrites) late_flags_.push_back({write, earlier.thread});
}

void ConflictChecker::note_atomic_flag(ThreadId other, Clock other_clock, SiteId other_site) {
  note_flag_read(other, other_clock, other_site, 0);
  if (observed_read_ && stamp_.kind.write) note_late_flag_write(Stamp{other, other_clock, other_site, {}}, 0);
}

FlagHandOff ConflictChecker::flag_hand_off(const Stamp& earlier) {
  const std::optional<FlagObservation> seen = block_.flags().handing_over(
      local_, earlier.thread, earlier.clock,
      [&](uint32_t reader, Clock at) { return block_.ordered_after(local_, block_.thread_id(reader), at); });
  if (!seen || seen->is_word_of(word_address_)) return {};
  return seen->hand_off();
}

bool ConflictChecker::conflict(const Stamp& earlier, uint32_t byte) {
  const Stamp& current = stamp_;
  // Lanes of one store that wrote the same value to one address: no observable race.
  if ((record_.flags & kFlagSameValue) && earlier.kind.write && current.kind.write && same_instruction(earlier)) return false;
  if (block_.knows(local_, earlier.thread, earlier.clock)) return false;
  if (flag_pair(earlier.kind, current.kind)) note_flag_read(earlier.thread, earlier.clock, earlier.site, byte);
  if (flag_pair(current.kind, earlier.kind)) note_late_flag_write(earlier, byte);
  bool scoped;
  bool unfenced = false;
  // A volatile store and a volatile load: morally strong (.sys covers every thread) exactly when the
  // load is a spin read, whatever their `strong` bits say.
  const bool volatile_pair = earlier.kind.volatile_pair_with(current.kind);
  if (volatile_pair && earlier.kind.spins_with(current.kind)) return false;
  if (earlier.kind.strong && current.kind.strong && !volatile_pair) {
    // Morally strong: each access's scope includes the other thread. Such pairs never race.
    if (covers(earlier.kind.memory_scope(), earlier.thread, current.thread) &&
        covers(current.kind.memory_scope(), current.thread, earlier.thread)) {
      return false;
    }
    scoped = true;
  } else {
    scoped = block_.knows_ignoring_scopes(local_, earlier.thread, earlier.clock);
    unfenced = block_.knows_assuming_spins(local_, earlier.thread, earlier.clock);
  }
  Race race;
  race.race_class = scoped ? RaceClass::kScoped : classify(earlier);
  race.hazard = hazard_between(earlier.kind, current.kind);
  race.sides = atomic_plain_sides(earlier.kind, current.kind);
  race.space = record_.space;
  race.first_site = earlier.site;
  race.second_site = current.site;
  const uint32_t per_block = launch_.padded_threads_per_block();
  race.first_thread = {block_of(earlier.thread), raw(earlier.thread) % per_block};
  race.second_thread = {block_.id(), local_};
  race.address = record_.space == MemorySpace::kCluster ? generic_address_of(word_address_ + byte) : word_address_ + byte;
  race.size = record_.size;
  race.unfenced_acquire = unfenced;
  race.first_id = earlier.thread;
  race.second_id = current.thread;
  race.first_clock = earlier.clock;
  race.second_clock = current.clock;
  if (unfenced) race.unfenced = block_.thread(local_).knowledge.origin;
  Race& entry = races_.add(race);
  if (!scoped && !unfenced && !entry.flag.valid && entry.count <= kOccurrencesLookingForAFlag) {
    entry.flag = flag_hand_off(earlier);
  }
  return true;
}

}  // namespace barracuda::engine

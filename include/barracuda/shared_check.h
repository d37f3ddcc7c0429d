#pragma once
// The rule by which the device checks a block's shared memory (device/shared_checker.cuh), written
// once for the GPU and for the host tests that prove it agrees with the engine
// (tests/devicecheck/). Header-only, no std:: types: compiled by nvcc and g++ alike.
//
// Where it applies: kernels whose shared memory only full-block barriers synchronise
// (src/ptx/passes/shared_checkable_kernels.h says which). There, within one launch and one block,
// nothing but a block barrier orders two threads' shared accesses: two accesses to one word race
// exactly when they fall in the same barrier interval of the block, come from different threads and
// at least one writes. A thread's barrier interval is the number of block barriers it has passed;
// the device turns it into an *epoch* (the block's first epoch plus that count), so that the shadow
// of an earlier block on the same slot is simply older and never needs clearing.
//
// The shadow keeps, per 4-byte word, what the host engine's FastTrack rule needs (docs/engine.md,
// "Reporting rule"): an access is checked against the word's last write, a write also against the
// reads since that write (the latest per thread), and a write forgets those reads. Reads are kept
// for two threads, not all: a write then names a reader other than itself whenever there is one, so
// every racing write is reported with a read it really races with, though not every such read.
#include <stdint.h>

#include "barracuda/race_rule.h"
#include "barracuda/record_view.h"
#include "barracuda/warp_lanes.h"

namespace barracuda {

// One access as the shadow remembers it: the epoch of its barrier interval, its block-linear thread,
// whether it was an atomic (atom/red without memory-ordering semantics) and its site, packed into 64
// bits (0 stands for "none": epochs start at 1).
struct SharedStamp {
  uint32_t epoch;
  uint32_t thread;  // below kSharedCheckMaxThreads
  uint32_t site;    // below kSharedCheckMaxSites
  bool atomic;
};

inline constexpr uint32_t kSharedCheckMaxThreads = 1u << kSharedRaceThreadBits;
inline constexpr uint32_t kSharedCheckSiteBits = 21;
// A module whose site ids reach this is checked on the host (the instrumentation decides).
inline constexpr uint32_t kSharedCheckMaxSites = 1u << kSharedCheckSiteBits;
inline constexpr uint32_t kSharedStampAtomicBit = kSharedCheckSiteBits;
inline constexpr uint32_t kSharedStampThreadShift = kSharedCheckSiteBits + 1;
static_assert(kSharedStampThreadShift + kSharedRaceThreadBits == 32, "thread, atomic and site fill the low half");

constexpr uint64_t pack_stamp(SharedStamp stamp) {
  return (uint64_t{stamp.epoch} << 32) |
         (uint64_t{stamp.thread & (kSharedCheckMaxThreads - 1)} << kSharedStampThreadShift) |
         (uint64_t{stamp.atomic} << kSharedStampAtomicBit) | (stamp.site & (kSharedCheckMaxSites - 1));
}
constexpr SharedStamp unpack_stamp(uint64_t packed) {
  return {static_cast<uint32_t>(packed >> 32),
          static_cast<uint32_t>((packed >> kSharedStampThreadShift) & (kSharedCheckMaxThreads - 1)),
          static_cast<uint32_t>(packed & (kSharedCheckMaxSites - 1)), ((packed >> kSharedStampAtomicBit) & 1u) != 0};
}

// The hazard an earlier access of another thread in the same interval forms with a later one
// (race_rule.h), or nothing: shared atomics never race with each other (their .cta or wider scope
// covers the block).
struct SharedHazardOrNone {
  bool races;
  Hazard hazard;
};
constexpr SharedHazardOrNone shared_hazard(bool earlier_write, bool earlier_atomic, bool later_write, bool later_atomic) {
  return {!(earlier_atomic && later_atomic), hazard_between(earlier_write, earlier_atomic, later_write, later_atomic)};
}

// The shadow of one 4-byte word of a block's shared memory. Each field is one 64-bit word the device
// updates with atomics; a field whose epoch is not the accessing thread's says nothing.
struct SharedShadowWord {
  uint64_t write;       // stamp of the last write
  uint64_t readers[2];  // stamps of reads since that write, of two different threads
  // epoch << 32 | value when the last write was a uniform store (every lane of its warp group stored
  // one value to this one address: what the host's StoreValues learns from kFlagUniformValue); else 0.
  uint64_t value;
};
static_assert(sizeof(SharedShadowWord) == 32 && offsetof(SharedShadowWord, readers) == 8 &&
                  offsetof(SharedShadowWord, value) == 24,
              "the device's shadow pool is laid out in these words");

// One lane's access to one word. An atomic is a write (stamp.atomic set): the engine's FastTrack rule
// applies it as one, after checking it as a read against the last write, and keeps the readers.
struct SharedAccess {
  SharedStamp stamp;
  bool write;
  // The thread the word's last write is credited to afterwards. Itself, except for lanes of one
  // store writing one address with one value (kFlagSameValue): those are checked once, by the lowest
  // lane, and leave the highest lane as last writer, which is what the host engine's lane-by-lane
  // application leaves (it skips the conflicts of lanes of one such instruction).
  uint32_t last_writer_thread;
  bool uniform;  // a uniform store (see SharedShadowWord::value) of `value`
  uint32_t value;
  // For such a store: the lanes of the warp applied before this one (the active lanes below it).
  // The host engine cannot tell their earlier writes at this site within the interval from this
  // instruction's (a thread's clock does not move between barriers here), so it does not report
  // them against it; the device follows it.
  uint32_t same_instruction_lanes;
};

struct SharedRace {
  Hazard hazard;
  SharedStamp first;  // the earlier access
  bool same_value;    // write-write between two uniform stores of one value
};

struct SharedCheckOutcome {
  SharedShadowWord next;  // the word's shadow after the access
  uint32_t race_count;
  SharedRace races[3];  // a write: with the last write and with up to two readers
};

// For a store whose lanes wrote one value per address (kFlagSameValue), lanes writing one address
// act as one write: the lowest of `same_address_lanes` checks it, the highest is left as writer.
// Every lane of any other access checks its own.
struct SharedLaneRole {
  bool checks;
  uint32_t last_writer_lane;
  uint32_t same_instruction_lanes;  // SharedAccess::same_instruction_lanes
};
constexpr SharedLaneRole shared_lane_role(bool same_value_store, uint32_t active_lanes, uint32_t same_address_lanes,
                                          uint32_t lane) {
  if (!same_value_store) return {true, lane, 0};
  uint32_t lowest = 0;
  while (lowest < 31 && !(same_address_lanes >> lowest & 1u)) ++lowest;
  uint32_t highest = 31;
  while (highest > 0 && !(same_address_lanes >> highest & 1u)) --highest;
  return {lane == lowest, highest, active_lanes & ((1u << lane) - 1)};
}

constexpr bool same_epoch(uint64_t packed, uint32_t epoch) { return packed != 0 && (packed >> 32) == epoch; }

// The decision for one access given the word's shadow as it was seen: the races it forms, and the
// shadow it leaves.
BARRACUDA_HOST_DEVICE constexpr SharedCheckOutcome check_shared_access(const SharedShadowWord& seen,
                                                                       const SharedAccess& access) {
  SharedCheckOutcome out{seen, 0, {}};
  const uint32_t epoch = access.stamp.epoch;
  const uint32_t thread = access.stamp.thread;
  const uint64_t me = pack_stamp(access.stamp);
  if (same_epoch(seen.write, epoch)) {
    const SharedStamp writer = unpack_stamp(seen.write);
    const bool same_instruction = access.write && writer.site == access.stamp.site &&
                                  writer.thread / kWarpSize == thread / kWarpSize &&
                                  (access.same_instruction_lanes >> (writer.thread % kWarpSize) & 1u) != 0;
    const SharedHazardOrNone pair = shared_hazard(true, writer.atomic, access.write, access.stamp.atomic);
    if (writer.thread != thread && !same_instruction && pair.races) {
      const bool same_value = access.write && access.uniform && same_epoch(seen.value, epoch) &&
                              static_cast<uint32_t>(seen.value) == access.value;
      out.races[out.race_count++] = {pair.hazard, writer, same_value};
    }
  }
  if (access.write) {
    // Readers are plain loads, so a reader's atomic bit is free: it marks a reader the last write, an
    // atomic, raced with (that race is reported; a later atomic of the same site passes it by).
    const SharedStamp last_write = unpack_stamp(seen.write);
    const bool same_site = seen.write != 0 && last_write.atomic && last_write.site == access.stamp.site;
    for (uint32_t i = 0; i < 2; ++i) {
      SharedStamp reader = unpack_stamp(seen.readers[i]);
      const bool marked = reader.atomic;
      reader.atomic = false;
      const bool skipped = access.stamp.atomic && marked && same_site;
      const bool races = !skipped && same_epoch(seen.readers[i], epoch) && reader.thread != thread;
      if (races) {
        out.races[out.race_count++] = {shared_hazard(false, false, true, access.stamp.atomic).hazard, reader, false};
      }
      // A plain write stands for the reads before it (a later access unordered with one races with
      // it); an atomic does not (a later atomic never races with it), so the readers stay (the
      // engine's kReadsKeptPastStrongWrites), marked where it raced with them.
      reader.atomic = skipped || races;
      out.next.readers[i] = access.stamp.atomic && seen.readers[i] != 0 ? pack_stamp(reader) : 0;
    }
    out.next.write = pack_stamp({epoch, access.last_writer_thread, access.stamp.site, access.stamp.atomic});
    out.next.value = access.uniform ? (uint64_t{epoch} << 32 | access.value) : 0;
    return out;
  }
  // A read: its thread's entry is replaced (the latest read per thread), else a free or stale entry
  // is taken. Once two other threads hold the entries the read changes nothing: a later write still
  // finds a reader other than itself, and a word many threads read (a tile row) costs no atomics.
  const bool first_current = same_epoch(seen.readers[0], epoch);
  const bool second_current = same_epoch(seen.readers[1], epoch);
  if (!first_current || unpack_stamp(seen.readers[0]).thread == thread) {
    out.next.readers[0] = me;
    if (second_current && unpack_stamp(seen.readers[1]).thread == thread) out.next.readers[1] = 0;
  } else if (!second_current || unpack_stamp(seen.readers[1]).thread == thread) {
    out.next.readers[1] = me;
  }
  return out;
}

// The lanes of one warp whose reads of one instruction fall on one word in one interval (`lanes`,
// bit i = lane i; `access` is any of them, `warp_base` the block-linear thread of lane 0): the shadow
// their lane-by-lane application in lane order leaves, computed at once, so that the device updates
// the word once for all of them (a tile row a whole warp reads). Each lane's race is its own, against
// the last write, which reads leave as it was. Once both entries hold current reads, only a lane whose
// thread holds one changes anything (it replaces its own entry): the others are skipped.
BARRACUDA_HOST_DEVICE constexpr SharedShadowWord apply_shared_read_lanes(SharedShadowWord seen, SharedAccess access,
                                                                         uint32_t lanes, uint32_t warp_base) {
  const uint32_t epoch = access.stamp.epoch;
  for (uint32_t rest = lanes; rest != 0;) {
    const uint32_t lane = lowest_lane(rest);
    rest &= rest - 1;
    access.stamp.thread = warp_base + lane;
    access.last_writer_thread = access.stamp.thread;
    seen = check_shared_access(seen, access).next;
    if (same_epoch(seen.readers[0], epoch) && same_epoch(seen.readers[1], epoch)) {
      uint32_t holders = 0;
      for (uint32_t r = 0; r < 2; ++r) {
        const uint32_t thread = unpack_stamp(seen.readers[r]).thread;
        if (thread >= warp_base && thread - warp_base < kWarpSize) holders |= 1u << (thread - warp_base);
      }
      rest &= holders;
    }
  }
  return seen;
}

}  // namespace barracuda

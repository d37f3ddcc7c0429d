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
// "Reporting rule"): an access is checked against the word's last plain write, a write also against
// the reads since that write (the latest per thread), and a write forgets those reads. Reads are kept
// for two threads, not all: a write then names a reader other than itself whenever there is one, so
// every racing write is reported with a read it really races with, though not every such read.
// Atomics are kept the same way, in a view of their own (two threads' latest), and never become the
// last write: a bin every thread of a block adds to fills the view once and is then only read, where
// making each atomic the last write took one compare-and-swap per atomic on one field (histograms).
// A plain access is checked against the atomics too; the atomic it names is one the view keeps, where
// the engine names the last one (tests/devicecheck/differential_test.cpp).
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

// The shadow of one 4-byte word of a block's shared memory. Each field is one 64-bit word the device
// updates with atomics; a field whose epoch is not the accessing thread's says nothing.
struct SharedShadowWord {
  uint64_t write;       // stamp of the last plain write
  uint64_t readers[2];  // stamps of plain reads since that write, of two different threads
  // epoch << 32 | value when the last write was a uniform store (every lane of its warp group stored
  // one value to this one address: what the host's StoreValues learns from kFlagUniformValue); else 0.
  // The device swaps the write's stamp in first and the value after it: a value of an earlier
  // interval beside a stamp of this one is not there yet (lags_written_value).
  uint64_t value;
  uint64_t atomics[2];  // stamps of atomics since that write, of two different threads
};
static_assert(sizeof(SharedShadowWord) == 48 && offsetof(SharedShadowWord, readers) == 8 &&
                  offsetof(SharedShadowWord, value) == 24 && offsetof(SharedShadowWord, atomics) == 32,
              "the device's shadow pool is laid out in these words");

// One lane's access to one word. An atomic (stamp.atomic set) is a write: it races with plain accesses
// of other threads, never with atomics.
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
  AccessOp first_op;  // what the earlier access did
};

struct SharedCheckOutcome {
  SharedShadowWord next;  // the word's shadow after the access
  uint32_t race_count;
  SharedRace races[5];  // a write: with the last write, up to two readers and two atomics
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

// Whether `packed`, a kept access, is of this interval and of another thread than `thread`.
constexpr bool current_other(uint64_t packed, uint32_t epoch, uint32_t thread) {
  return same_epoch(packed, epoch) && unpack_stamp(packed).thread != thread;
}

// A view of two entries (the readers, or the atomics) after an access of `thread` (`me`) joins it: its
// thread's entry is replaced (the latest per thread), else a free or stale entry is taken. Once two
// other threads hold the entries the access changes nothing: a later conflicting access still finds
// one of another thread than itself, and a word many threads read (a tile row) or add to (a bin)
// costs no atomics.
BARRACUDA_HOST_DEVICE constexpr void join_view(uint64_t (&next)[2], const uint64_t (&seen)[2], uint64_t me,
                                               uint32_t epoch, uint32_t thread) {
  const bool first_current = same_epoch(seen[0], epoch);
  const bool second_current = same_epoch(seen[1], epoch);
  if (!first_current || unpack_stamp(seen[0]).thread == thread) {
    next[0] = me;
    if (second_current && unpack_stamp(seen[1]).thread == thread) next[1] = 0;
  } else if (!second_current || unpack_stamp(seen[1]).thread == thread) {
    next[1] = me;
  }
}

// The races one access forms with the word's shadow as it was seen, each passed to `fn` (the device
// sends them one by one: no array of them on its stack).
template <typename Fn>
BARRACUDA_HOST_DEVICE constexpr void for_each_shared_race(const SharedShadowWord& seen, const SharedAccess& access,
                                                          Fn&& fn) {
  const uint32_t epoch = access.stamp.epoch;
  const uint32_t thread = access.stamp.thread;
  const bool atomic = access.stamp.atomic;
  if (current_other(seen.write, epoch, thread)) {
    const SharedStamp writer = unpack_stamp(seen.write);
    const bool same_instruction = access.write && writer.site == access.stamp.site &&
                                  writer.thread / kWarpSize == thread / kWarpSize &&
                                  (access.same_instruction_lanes >> (writer.thread % kWarpSize) & 1u) != 0;
    if (!same_instruction) {
      const bool same_value = access.write && access.uniform && same_epoch(seen.value, epoch) &&
                              static_cast<uint32_t>(seen.value) == access.value;
      fn(SharedRace{hazard_between(true, false, access.write, atomic), writer, same_value, AccessOp::kWrite});
    }
  }
  // A write races with the reads of other threads; any plain access with their atomics.
  for (uint32_t i = 0; i < 2; ++i) {
    if (access.write && current_other(seen.readers[i], epoch, thread)) {
      fn(SharedRace{hazard_between(false, false, true, atomic), unpack_stamp(seen.readers[i]), false, AccessOp::kRead});
    }
  }
  for (uint32_t i = 0; i < 2; ++i) {
    if (!atomic && current_other(seen.atomics[i], epoch, thread)) {
      fn(SharedRace{Hazard::kAtomicPlain, unpack_stamp(seen.atomics[i]), false, AccessOp::kAtomic});
    }
  }
}

// What a plain write leaves as the last write (its stamp, with the thread it is credited to) and as
// the word's value.
BARRACUDA_HOST_DEVICE constexpr uint64_t shared_write_stamp(const SharedAccess& access) {
  return pack_stamp({access.stamp.epoch, access.last_writer_thread, access.stamp.site, false});
}
BARRACUDA_HOST_DEVICE constexpr uint64_t shared_write_value(const SharedAccess& access) {
  return access.uniform ? (uint64_t{access.stamp.epoch} << 32 | access.value) : 0;
}
// Whether the rule would compare `access` (a uniform plain write) with the value of a write of
// another thread in its interval that is not beside that write's stamp yet: the device waits for it
// (a flag eight warps set to 1 was otherwise compared with the 0 of the interval before and reported
// as a race of two different values). Any value of the interval will do: writers of one interval that
// stored different values race with each other whichever pair is named.
BARRACUDA_HOST_DEVICE constexpr bool lags_written_value(const SharedShadowWord& seen, const SharedAccess& access) {
  return access.write && !access.stamp.atomic && access.uniform &&
         current_other(seen.write, access.stamp.epoch, access.stamp.thread) &&
         !same_epoch(seen.value, access.stamp.epoch);
}

// The shadow an access leaves, from the shadow it saw (in place).
BARRACUDA_HOST_DEVICE constexpr void apply_shared_access(SharedShadowWord& word, const SharedAccess& access) {
  const uint32_t epoch = access.stamp.epoch;
  const uint32_t thread = access.stamp.thread;
  const uint64_t me = pack_stamp(access.stamp);
  if (access.stamp.atomic) {
    const uint64_t seen[2] = {word.atomics[0], word.atomics[1]};
    join_view(word.atomics, seen, me, epoch, thread);
  } else if (access.write) {
    // A plain write stands for the reads and atomics before it: a later access unordered with one of
    // them is unordered with the write too (or of the write's own thread, which the engine does not
    // check against them either).
    word.write = shared_write_stamp(access);
    word.readers[0] = word.readers[1] = 0;
    word.atomics[0] = word.atomics[1] = 0;
    word.value = shared_write_value(access);
  } else {
    const uint64_t seen[2] = {word.readers[0], word.readers[1]};
    join_view(word.readers, seen, me, epoch, thread);
  }
}

// Both at once (the host tests and the simulator of the device check).
constexpr SharedCheckOutcome check_shared_access(const SharedShadowWord& seen, const SharedAccess& access) {
  SharedCheckOutcome out{seen, 0, {}};
  for_each_shared_race(seen, access, [&](const SharedRace& race) { out.races[out.race_count++] = race; });
  apply_shared_access(out.next, access);
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
    apply_shared_access(seen, access);
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

#pragma once
// The rule by which the device checks global memory in barrier-only kernels (device/global_checker.cuh),
// written once for the GPU and for the host tests that prove it agrees with the engine
// (tests/devicecheck/). Header-only, no std:: types: compiled by nvcc and g++ alike.
//
// Where it applies (after CURD, PLDI'18): launches of kernels in which nothing but full-block barriers
// orders two threads' accesses (src/ptx/passes/global_checkable_kernels.h: no atomics on global memory,
// no fences, no strong or ordering accesses), and that no other work can run beside
// (the host decides: runtime/global_shadow.h). There, two accesses to one global word race exactly
// when they come from two blocks, or from two threads of one block in the same barrier interval, and
// at least one writes: no vector clock is needed.
//
// The shadow keeps, per 4-byte word, what the host engine's FastTrack rule needs (docs/engine.md,
// "Reporting rule"), as the shared-memory rule does (barracuda/shared_check.h): an access is checked
// against the word's last write, a write also against the reads since that write, and a write forgets
// those reads. Two reads are kept, chosen so that any later write that races with some read since the
// last write races with one of them (check_global_access says how); a write names one such read, not
// every one.
//
// A stamp names an access of this launch: a 16-bit launch tag (the shadow of earlier launches is older
// and never cleared), the block, the thread's barrier interval and its block-linear thread, in 64 bits.
// Block and interval share 38 bits as the launch's grid needs (GlobalStampLayout); an interval past
// what its bits hold stays at the largest value, and two accesses of one block both there are not
// compared (the device marks GlobalCheckLaunch::saturated; the host does not read it back yet).
#include <stdint.h>

#include "barracuda/record_view.h"
#include "barracuda/shared_check.h"

namespace barracuda {

inline constexpr uint32_t kGlobalTagBits = 16;
inline constexpr uint32_t kGlobalThreadBits = kSharedRaceThreadBits;  // 1024 threads a block
inline constexpr uint32_t kGlobalPlaceBits = 64 - kGlobalTagBits - kGlobalThreadBits;
// A grid of more blocks than this is checked on the host: at least 8 bits of barrier interval remain.
inline constexpr uint32_t kGlobalMaxBlockBits = kGlobalPlaceBits - 8;
inline constexpr uint32_t kGlobalSiteBits = kSharedCheckSiteBits;

// How a launch splits the 38 bits between block and barrier interval (at most 32 bits of interval:
// a thread's barrier count is 32 bits).
struct GlobalStampLayout {
  uint32_t interval_bits;
  constexpr uint32_t max_interval() const { return interval_bits >= 32 ? ~0u : (1u << interval_bits) - 1; }
};
inline constexpr uint32_t kGlobalMinBlockBits = kGlobalPlaceBits - 32;
// The layout for a grid of `blocks` blocks (at least 1): as many bits as the block ids need.
constexpr GlobalStampLayout global_stamp_layout(uint64_t blocks) {
  uint32_t block_bits = kGlobalMinBlockBits;
  while (block_bits < 63 && (uint64_t{1} << block_bits) < blocks) ++block_bits;
  return {kGlobalPlaceBits - block_bits};
}
constexpr bool global_grid_fits(uint64_t blocks) { return blocks != 0 && blocks <= (uint64_t{1} << kGlobalMaxBlockBits); }

struct GlobalStamp {
  uint32_t tag;  // the launch's, never 0
  uint32_t block;
  uint32_t interval;
  uint32_t thread;
};

constexpr uint64_t pack_global_stamp(GlobalStamp stamp, GlobalStampLayout layout) {
  const uint64_t place = (uint64_t{stamp.block} << layout.interval_bits) | (stamp.interval & layout.max_interval());
  return (uint64_t{stamp.tag} << (64 - kGlobalTagBits)) | (place << kGlobalThreadBits) |
         (stamp.thread & ((1u << kGlobalThreadBits) - 1));
}
constexpr GlobalStamp unpack_global_stamp(uint64_t packed, GlobalStampLayout layout) {
  const uint64_t place = (packed >> kGlobalThreadBits) & ((uint64_t{1} << kGlobalPlaceBits) - 1);
  return {static_cast<uint32_t>(packed >> (64 - kGlobalTagBits)), static_cast<uint32_t>(place >> layout.interval_bits),
          static_cast<uint32_t>(place & layout.max_interval()),
          static_cast<uint32_t>(packed & ((1u << kGlobalThreadBits) - 1))};
}
constexpr bool current_stamp(uint64_t packed, uint32_t tag) {
  return packed != 0 && (packed >> (64 - kGlobalTagBits)) == tag;
}
// GlobalShadowWord::value: tag << 32 | the value of a uniform store of this launch.
constexpr bool current_value(uint64_t value, uint32_t tag) { return value != 0 && (value >> 32) == tag; }

// A site as the shadow keeps it beside a stamp: the site and 11 bits folded from the stamp it belongs
// to. The stamp is swapped in atomically and the site written after it, so a report reads the site
// and takes it only when the fold matches the stamp it raced with.
constexpr uint32_t stamp_fold(uint64_t packed) {
  uint64_t fold = 0;
  for (uint32_t shift = 0; shift < 64; shift += 11) fold ^= packed >> shift;
  return static_cast<uint32_t>(fold & 0x7ffu);
}
constexpr uint32_t pack_global_site(uint32_t site, uint64_t stamp) {
  return (site & ((1u << kGlobalSiteBits) - 1)) | (stamp_fold(stamp) << kGlobalSiteBits);
}
// The site kept for `stamp`, or kGlobalUnknownSite when the kept one belongs to another stamp.
inline constexpr uint32_t kGlobalUnknownSite = (1u << kGlobalSiteBits) - 1;
constexpr uint32_t kept_global_site(uint32_t kept, uint64_t stamp) {
  return (kept >> kGlobalSiteBits) == stamp_fold(stamp) ? (kept & ((1u << kGlobalSiteBits) - 1)) : kGlobalUnknownSite;
}

// The shadow of one 4-byte word of global memory. The device swaps each 64-bit stamp in with an
// atomic and writes its site after it.
struct GlobalShadowWord {
  uint64_t write;       // stamp of the last write
  uint64_t readers[2];  // stamps of reads since that write (see check_global_access)
  // tag << 32 | value when the last write was a uniform store (every lane of its warp group stored one
  // value to this one address: what the host's StoreValues learns from kFlagUniformValue); else 0.
  uint64_t value;
  uint32_t write_site;       // pack_global_site() of `write`
  uint32_t reader_sites[2];  // of `readers`
  uint32_t unused;
};
static_assert(sizeof(GlobalShadowWord) == 48 && offsetof(GlobalShadowWord, readers) == 8 &&
                  offsetof(GlobalShadowWord, value) == 24 && offsetof(GlobalShadowWord, write_site) == 32,
              "the device's shadow is laid out in these words");

// One lane's access to one word (as SharedAccess: see there for the uniform-store fields).
struct GlobalAccess {
  GlobalStamp stamp;
  uint32_t site;
  bool write;
  uint32_t last_writer_thread;
  bool uniform;
  uint32_t value;
  uint32_t same_instruction_lanes;
};

struct GlobalRace {
  Hazard hazard;  // a plain read or write against a plain read or write
  uint64_t first;       // the earlier access's stamp
  uint32_t first_site;  // its kept site (kept_global_site: may be kGlobalUnknownSite)
  bool same_value;      // write-write between two uniform stores of one value
};

struct GlobalCheckOutcome {
  GlobalShadowWord next;  // the word's shadow after the access (sites of the new stamps included)
  uint32_t race_count;
  GlobalRace races[3];  // a write: with the last write and with up to two readers
};

// Whether an earlier access of this launch (`earlier`, current) and `access` race: two blocks, or two
// threads of one block in one barrier interval. An interval at the layout's largest value may stand
// for several: two such of one block are not compared.
constexpr bool global_concurrent(uint64_t earlier, const GlobalStamp& access, GlobalStampLayout layout) {
  const GlobalStamp first = unpack_global_stamp(earlier, layout);
  if (first.block != access.block) return true;
  if (first.interval != access.interval || first.thread == access.thread) return false;
  return access.interval != layout.max_interval();
}

// Which reader entry a read replaces (0 or 1), or 2 for none. The two entries are kept such that a
// later write racing with any read since the last write races with an entry:
//   - the thread's own entry is replaced (its latest read races with whatever its earlier one did);
//   - else a free entry or one of an earlier launch;
//   - else an entry of the same block in an earlier interval (ordered before every later access of
//     the block; for other blocks the new read serves as well);
//   - else, when both entries hold reads of one block other than the reader's, the second (two blocks
//     then: every write races with the entry of the block it is not of);
//   - else nothing: two blocks are held already, or the reader's block with another thread in the same
//     interval.
// (reader_to_replace without the first case: the choice for a read whose thread holds no entry.)
constexpr uint32_t reader_to_replace_for_others(const GlobalShadowWord& seen, const GlobalStamp& read,
                                                GlobalStampLayout layout) {
  const bool current[2] = {current_stamp(seen.readers[0], read.tag), current_stamp(seen.readers[1], read.tag)};
  const GlobalStamp held[2] = {unpack_global_stamp(seen.readers[0], layout),
                               unpack_global_stamp(seen.readers[1], layout)};
  for (uint32_t r = 0; r < 2; ++r) {
    if (!current[r]) return r;
  }
  for (uint32_t r = 0; r < 2; ++r) {
    if (held[r].block == read.block && held[r].interval < read.interval) return r;
  }
  if (held[0].block == held[1].block && held[0].block != read.block) return 1;
  return 2;
}
constexpr uint32_t reader_to_replace(const GlobalShadowWord& seen, const GlobalStamp& read, GlobalStampLayout layout) {
  for (uint32_t r = 0; r < 2; ++r) {
    const GlobalStamp held = unpack_global_stamp(seen.readers[r], layout);
    if (current_stamp(seen.readers[r], read.tag) && held.block == read.block && held.thread == read.thread) return r;
  }
  return reader_to_replace_for_others(seen, read, layout);
}

// The decision for one access given the word's shadow as it was seen: the races it forms, and the
// shadow it leaves.
BARRACUDA_HOST_DEVICE constexpr GlobalCheckOutcome check_global_access(const GlobalShadowWord& seen,
                                                                       const GlobalAccess& access,
                                                                       GlobalStampLayout layout) {
  GlobalCheckOutcome out{seen, 0, {}};
  const uint32_t tag = access.stamp.tag;
  const uint64_t me = pack_global_stamp(access.stamp, layout);
  if (current_stamp(seen.write, tag) && global_concurrent(seen.write, access.stamp, layout)) {
    const GlobalStamp writer = unpack_global_stamp(seen.write, layout);
    const uint32_t writer_site = kept_global_site(seen.write_site, seen.write);
    const bool same_instruction = access.write && writer_site == access.site && writer.block == access.stamp.block &&
                                  writer.thread / kWarpSize == access.stamp.thread / kWarpSize &&
                                  (access.same_instruction_lanes >> (writer.thread % kWarpSize) & 1u) != 0;
    if (!same_instruction) {
      const bool same_value = access.write && access.uniform && current_value(seen.value, tag) &&
                              static_cast<uint32_t>(seen.value) == access.value;
      out.races[out.race_count++] = {hazard_between(true, false, access.write, false), seen.write, writer_site,
                                     same_value};
    }
  }
  if (access.write) {
    for (uint32_t r = 0; r < 2; ++r) {
      if (current_stamp(seen.readers[r], tag) && global_concurrent(seen.readers[r], access.stamp, layout)) {
        out.races[out.race_count++] = {hazard_between(false, false, true, false), seen.readers[r],
                                       kept_global_site(seen.reader_sites[r], seen.readers[r]), false};
      }
    }
    const uint64_t writer = pack_global_stamp({tag, access.stamp.block, access.stamp.interval, access.last_writer_thread}, layout);
    out.next.write = writer;
    out.next.write_site = pack_global_site(access.site, writer);
    out.next.readers[0] = out.next.readers[1] = 0;
    out.next.value = access.uniform ? (uint64_t{tag} << 32 | access.value) : 0;
    return out;
  }
  const uint32_t replaced = reader_to_replace(seen, access.stamp, layout);
  if (replaced < 2) {
    out.next.readers[replaced] = me;
    out.next.reader_sites[replaced] = pack_global_site(access.site, me);
  }
  return out;
}

// The lanes of one warp whose reads of one instruction fall on one word in one barrier interval
// (`lanes`; `access` is any of them, `warp_base` the block-linear thread of lane 0): the shadow their
// lane-by-lane application in lane order leaves, computed at once (as apply_shared_read_lanes: a word
// a whole warp reads is updated once). Once a read whose thread holds no entry would change nothing,
// only the lanes holding an entry can: the others are skipped.
BARRACUDA_HOST_DEVICE constexpr GlobalShadowWord apply_global_read_lanes(GlobalShadowWord seen, GlobalAccess access,
                                                                         uint32_t lanes, uint32_t warp_base,
                                                                         GlobalStampLayout layout) {
  for (uint32_t rest = lanes; rest != 0;) {
    const uint32_t lane = lowest_lane(rest);
    rest &= rest - 1;
    access.stamp.thread = warp_base + lane;
    access.last_writer_thread = access.stamp.thread;
    seen = check_global_access(seen, access, layout).next;
    if (reader_to_replace_for_others(seen, access.stamp, layout) == 2) {
      uint32_t holders = 0;
      for (uint32_t r = 0; r < 2; ++r) {
        const GlobalStamp held = unpack_global_stamp(seen.readers[r], layout);
        if (current_stamp(seen.readers[r], access.stamp.tag) && held.block == access.stamp.block &&
            held.thread >= warp_base && held.thread - warp_base < kWarpSize) {
          holders |= 1u << (held.thread - warp_base);
        }
      }
      rest &= holders;
    }
  }
  return seen;
}

}  // namespace barracuda

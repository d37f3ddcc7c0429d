#pragma once
// The rule by which the device checks global memory in barrier-only kernels (device/global_checker.cuh),
// written once for the GPU and for the host tests that prove it agrees with the engine
// (tests/devicecheck/). Header-only, no std:: types: compiled by nvcc and g++ alike.
//
// Where it applies (after CURD, PLDI'18): launches of kernels in which nothing but full-block barriers
// orders two threads' accesses (src/ptx/passes/global_checkable_kernels.h: no fences, no ordering
// accesses; atomics of .gpu or .sys scope and relaxed loads allowed), and that no other work can run
// beside (the host decides: runtime/global_shadow.h). There, two accesses to one global word race
// exactly when they come from two blocks, or from two threads of one block in the same barrier
// interval, at least one writes, and they are not both strong (two atomics, or an atomic and a relaxed
// load, are morally strong at those scopes): no vector clock is needed.
//
// The shadow keeps, per 4-byte word, what the host engine's FastTrack rule needs (docs/engine.md,
// "Reporting rule"; engine/shadow_cell.cpp), as the shared-memory rule does (barracuda/shared_check.h):
// the last plain write, and the accesses since it in three views (plain loads, relaxed loads,
// atomics) of two entries each, chosen so that any later access that races with some access of a view
// races with one of its entries (check_global_access says how). An access is checked against the last
// plain write and the views it conflicts with; a plain write forgets the views.
//
// A stamp names an access of this launch: a 16-bit launch tag (the shadow of earlier launches is older
// and never cleared), the block, the thread's barrier interval, whether it was strong and its
// block-linear thread, in 64 bits. Block and interval share 37 bits as the launch's grid needs
// (GlobalStampLayout); an interval past what its bits hold stays at the largest value, and two
// accesses of one block both there are not compared (the device marks GlobalCheckLaunch::saturated,
// and the host reports the launch as checked in part).
#include <stdint.h>

#include "barracuda/record_view.h"
#include "barracuda/shared_check.h"

namespace barracuda {

inline constexpr uint32_t kGlobalTagBits = 16;
inline constexpr uint32_t kGlobalThreadBits = kSharedRaceThreadBits;  // 1024 threads a block
// One bit says whether the access was strong (GlobalStamp::strong).
inline constexpr uint32_t kGlobalStrongBit = kGlobalThreadBits;
inline constexpr uint32_t kGlobalPlaceShift = kGlobalThreadBits + 1;
inline constexpr uint32_t kGlobalPlaceBits = 64 - kGlobalTagBits - kGlobalPlaceShift;
// A grid of more blocks than this is checked on the host: at least 8 bits of barrier interval remain.
inline constexpr uint32_t kGlobalMaxBlockBits = kGlobalPlaceBits - 8;
inline constexpr uint32_t kGlobalSiteBits = kSharedCheckSiteBits;

// How a launch splits the 37 bits between block and barrier interval (at most 32 bits of interval:
// a thread's barrier count is 32 bits). In a kernel with grid syncs (src/ptx/passes/grid_syncs.h) the
// interval's high `grid_bits` count the block's grid syncs (its grid interval) and the low ones the
// block barriers since the last; without, all count block barriers.
struct GlobalStampLayout {
  uint32_t interval_bits;
  uint32_t grid_bits = 0;
  constexpr uint32_t max_interval() const { return interval_bits >= 32 ? ~0u : (1u << interval_bits) - 1; }
  constexpr uint32_t barrier_bits() const { return interval_bits - grid_bits; }
  constexpr uint32_t max_barriers() const { return barrier_bits() >= 32 ? ~0u : (1u << barrier_bits()) - 1; }
  constexpr uint32_t max_grid() const { return (1u << grid_bits) - 1; }
  constexpr uint32_t grid_of(uint32_t interval) const { return grid_bits == 0 ? 0 : interval >> barrier_bits(); }
  constexpr uint32_t barriers_of(uint32_t interval) const { return interval & max_barriers(); }
  // The interval of a thread `barriers` block barriers past its block's `grid_syncs`th grid sync, each
  // part held at its largest value past what its bits hold.
  constexpr uint32_t interval_of(uint32_t grid_syncs, uint32_t barriers) const {
    const uint32_t grid = grid_syncs < max_grid() ? grid_syncs : max_grid();
    const uint32_t within = barriers < max_barriers() ? barriers : max_barriers();
    return grid_bits == 0 ? within : (grid << barrier_bits()) | within;
  }
};
inline constexpr uint32_t kGlobalMinBlockBits = kGlobalPlaceBits - 32;
inline constexpr uint32_t kGlobalMaxGridBits = 16;
// With grid syncs, the bits left to count block barriers between two of them, where the interval has
// room: an iterative solver passes thousands of grid syncs, rarely a thousand barriers between two.
inline constexpr uint32_t kGlobalBarrierBitsBetweenGridSyncs = 10;
// The layout for a grid of `blocks` blocks (at least 1): as many bits as the block ids need; with grid
// syncs, all but kGlobalBarrierBitsBetweenGridSyncs of the rest (at most 16) count them, or half where
// the rest is short (grids of over 2^17 blocks).
constexpr GlobalStampLayout global_stamp_layout(uint64_t blocks, bool grid_syncs = false) {
  uint32_t block_bits = kGlobalMinBlockBits;
  while (block_bits < 63 && (uint64_t{1} << block_bits) < blocks) ++block_bits;
  const uint32_t interval_bits = kGlobalPlaceBits - block_bits;
  if (!grid_syncs) return {interval_bits, 0};
  const uint32_t wanted = interval_bits >= 2 * kGlobalBarrierBitsBetweenGridSyncs
                              ? interval_bits - kGlobalBarrierBitsBetweenGridSyncs
                              : interval_bits / 2;
  return {interval_bits, wanted < kGlobalMaxGridBits ? wanted : kGlobalMaxGridBits};
}
// GlobalCheckLaunch::layout: both fields in one word.
constexpr uint32_t pack_global_stamp_layout(GlobalStampLayout layout) {
  return layout.interval_bits | layout.grid_bits << 8;
}
constexpr GlobalStampLayout unpack_global_stamp_layout(uint32_t packed) { return {packed & 0xffu, packed >> 8 & 0xffu}; }
constexpr bool global_grid_fits(uint64_t blocks) { return blocks != 0 && blocks <= (uint64_t{1} << kGlobalMaxBlockBits); }

struct GlobalStamp {
  uint32_t tag;  // the launch's, never 0
  uint32_t block;
  uint32_t interval;
  uint32_t thread;
  // A write: an atomic or reduction (of .gpu or .sys scope, without ordering semantics). A read: a
  // relaxed load of such a scope. Two strong accesses never race here.
  bool strong = false;
};

constexpr uint64_t pack_global_stamp(GlobalStamp stamp, GlobalStampLayout layout) {
  const uint64_t place = (uint64_t{stamp.block} << layout.interval_bits) | (stamp.interval & layout.max_interval());
  return (uint64_t{stamp.tag} << (64 - kGlobalTagBits)) | (place << kGlobalPlaceShift) |
         (uint64_t{stamp.strong} << kGlobalStrongBit) | (stamp.thread & ((1u << kGlobalThreadBits) - 1));
}
constexpr GlobalStamp unpack_global_stamp(uint64_t packed, GlobalStampLayout layout) {
  const uint64_t place = (packed >> kGlobalPlaceShift) & ((uint64_t{1} << kGlobalPlaceBits) - 1);
  return {static_cast<uint32_t>(packed >> (64 - kGlobalTagBits)), static_cast<uint32_t>(place >> layout.interval_bits),
          static_cast<uint32_t>(place & layout.max_interval()),
          static_cast<uint32_t>(packed & ((1u << kGlobalThreadBits) - 1)), ((packed >> kGlobalStrongBit) & 1u) != 0};
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
//
// Besides the last plain write, the accesses since it are kept in three views of two entries each:
// plain loads, relaxed loads and atomics. Each view keeps its entries by one rule (entry_to_replace),
// so a later access that races with any access of a view since the last plain write races with one of
// its entries. Atomics are not the last write: they do not race with each other nor forget anything,
// and a word every thread adds to fills its view once and is then only read (a counter, a histogram).
enum class GlobalView : uint32_t { kPlainReads = 0, kRelaxedReads = 1, kAtomics = 2 };
inline constexpr uint32_t kGlobalViews = 3;
inline constexpr uint32_t kGlobalEntries = 2 * kGlobalViews;
struct GlobalShadowWord {
  uint64_t write;                    // stamp of the last plain write
  uint64_t entries[kGlobalEntries];  // stamps of accesses since it: view v in [2v] and [2v + 1]
  // tag << 32 | value when the last plain write was a uniform store (every lane of its warp group
  // stored one value to this one address: what the host's StoreValues learns from kFlagUniformValue);
  // else 0. Written after the stamp, as in the shared rule (lags_written_value).
  uint64_t value;
  uint32_t write_site;                    // pack_global_site() of `write`
  uint32_t entry_sites[kGlobalEntries];  // of `entries`
  uint32_t unused;
};
static_assert(sizeof(GlobalShadowWord) == 96 && offsetof(GlobalShadowWord, entries) == 8 &&
                  offsetof(GlobalShadowWord, value) == 56 && offsetof(GlobalShadowWord, write_site) == 64 &&
                  offsetof(GlobalShadowWord, entry_sites) == 68,
              "the device's shadow is laid out in these words");

// Whether an access the device checks is strong (GlobalStamp::strong): an atomic or reduction, or a
// relaxed load (the instrumentation lets through only those of .gpu or .sys scope without ordering
// semantics: src/ptx/passes/global_checkable_kernels.h).
constexpr bool global_access_strong(RecordOp op, uint8_t space_sem) {
  return op == RecordOp::kAtomic || op == RecordOp::kReduction ||
         (op == RecordOp::kLoad && semantics_of(space_sem) == MemorySemantics::kRelaxed);
}

// One lane's access to one word (as SharedAccess: see there for the uniform-store fields).
struct GlobalAccess {
  GlobalStamp stamp;  // stamp.strong: an atomic (a write) or a relaxed load
  uint32_t site;
  bool write;  // a store or an atomic
  uint32_t last_writer_thread;
  bool uniform;
  uint32_t value;
  uint32_t same_instruction_lanes;
};

constexpr bool plain_write(const GlobalAccess& access) { return access.write && !access.stamp.strong; }
// The view an access other than a plain write is kept in.
constexpr GlobalView view_of(const GlobalAccess& access) {
  return access.write ? GlobalView::kAtomics : access.stamp.strong ? GlobalView::kRelaxedReads : GlobalView::kPlainReads;
}
constexpr uint32_t first_entry(GlobalView view) { return 2 * static_cast<uint32_t>(view); }
constexpr GlobalView view_of_entry(uint32_t entry) { return static_cast<GlobalView>(entry / 2); }

// Whether an access of view `earlier` and `access`, concurrent, race: a plain write races with all;
// an atomic with plain loads, and the reverse; relaxed loads with plain writes only.
constexpr bool view_conflicts(GlobalView earlier, const GlobalAccess& access) {
  if (plain_write(access)) return true;
  switch (view_of(access)) {
    case GlobalView::kAtomics: return earlier == GlobalView::kPlainReads;
    case GlobalView::kPlainReads: return earlier == GlobalView::kAtomics;
    case GlobalView::kRelaxedReads: return false;
  }
  return false;
}
// Whether the rule reads the entries of `view` for `access`: those it conflicts with, and its own (a
// plain write reads all). The device loads no others.
constexpr bool reads_view(GlobalView view, const GlobalAccess& access) {
  return plain_write(access) || view == view_of(access) || view_conflicts(view, access);
}
// The hazard an entry of `earlier` forms with a later access it races with.
constexpr Hazard view_hazard(GlobalView earlier, const GlobalAccess& access) {
  const bool atomic = earlier == GlobalView::kAtomics;
  return hazard_between(atomic, atomic, access.write, access.write && access.stamp.strong);
}

struct GlobalRace {
  Hazard hazard;
  uint64_t first;       // the earlier access's stamp
  uint32_t first_site;  // its kept site (kept_global_site: may be kGlobalUnknownSite)
  bool same_value;      // write-write between two uniform stores of one value
  AccessOp first_op;    // what the earlier access did
};
// What an access a view keeps did (the relaxed loads' view: loads).
constexpr AccessOp view_op(GlobalView view) { return view == GlobalView::kAtomics ? AccessOp::kAtomic : AccessOp::kRead; }
// What `access` did (a strong write is an atomic: checkable kernels have no relaxed stores).
constexpr AccessOp global_access_op(const GlobalAccess& access) {
  return access_op(access.write, access.write && access.stamp.strong);
}

struct GlobalCheckOutcome {
  GlobalShadowWord next;  // the word's shadow after the access (sites of the new stamps included)
  uint32_t race_count;
  GlobalRace races[1 + kGlobalEntries];  // with the last plain write and the entries
};

// Whether an earlier access of this launch (`earlier`, current) and `access` race: two blocks in one
// grid interval (every grid interval is one where the kernel has no grid syncs), or two threads of one
// block in one barrier interval. An interval part at the layout's largest value may stand for
// several: two such of one block (of two blocks, for the grid part) are not compared.
constexpr bool global_concurrent(uint64_t earlier, const GlobalStamp& access, GlobalStampLayout layout) {
  const GlobalStamp first = unpack_global_stamp(earlier, layout);
  if (first.block != access.block) {
    // Two blocks: concurrent in one grid interval. At the largest one, which may stand for several,
    // they are not compared.
    const uint32_t grid = layout.grid_of(access.interval);
    return layout.grid_of(first.interval) == grid && (layout.grid_bits == 0 || grid != layout.max_grid());
  }
  if (first.interval != access.interval || first.thread == access.thread) return false;
  return layout.barriers_of(access.interval) != layout.max_barriers();
}

inline constexpr uint32_t kNoEntry = kGlobalEntries;

// Which entry of its view (`view`) an access replaces, or kNoEntry for none. A view's two entries are
// kept such that a later access racing with any access of the view since the last plain write races
// with one:
//   - the thread's own entry is replaced (its latest access races with whatever its earlier one did);
//   - else a free entry or one of an earlier launch;
//   - else one of an earlier grid interval (every block has left it: ordered before every later access);
//   - else an entry of the same block in an earlier interval (ordered before every later access of
//     the block; for other blocks the new access serves as well);
//   - else, when both entries hold accesses of one block other than the accessor's, the second (two
//     blocks then: every later access races with the entry of the block it is not of);
//   - else nothing: two blocks are held already, or the accessor's block with another thread in the
//     same interval.
// (entry_to_replace without the first case: the choice for an access whose thread holds no entry.)
constexpr uint32_t entry_to_replace_for_others(const GlobalShadowWord& seen, GlobalView view, const GlobalStamp& stamp,
                                               GlobalStampLayout layout) {
  const uint32_t first = first_entry(view);
  const bool current[2] = {current_stamp(seen.entries[first], stamp.tag), current_stamp(seen.entries[first + 1], stamp.tag)};
  const GlobalStamp held[2] = {unpack_global_stamp(seen.entries[first], layout),
                               unpack_global_stamp(seen.entries[first + 1], layout)};
  for (uint32_t r = 0; r < 2; ++r) {
    if (!current[r]) return first + r;
  }
  for (uint32_t r = 0; r < 2; ++r) {
    if (layout.grid_of(held[r].interval) < layout.grid_of(stamp.interval)) return first + r;
  }
  for (uint32_t r = 0; r < 2; ++r) {
    if (held[r].block == stamp.block && held[r].interval < stamp.interval) return first + r;
  }
  if (held[0].block == held[1].block && held[0].block != stamp.block) return first + 1;
  return kNoEntry;
}
constexpr uint32_t entry_to_replace(const GlobalShadowWord& seen, GlobalView view, const GlobalStamp& stamp,
                                    GlobalStampLayout layout) {
  const uint32_t first = first_entry(view);
  for (uint32_t r = first; r < first + 2; ++r) {
    const GlobalStamp held = unpack_global_stamp(seen.entries[r], layout);
    if (current_stamp(seen.entries[r], stamp.tag) && held.block == stamp.block && held.thread == stamp.thread) return r;
  }
  return entry_to_replace_for_others(seen, view, stamp, layout);
}

// The decision for one access given the word's shadow as it was seen: the races it forms, and the
// shadow it leaves. Every access is checked against the last plain write and the entries of the views
// it conflicts with; a plain write then forgets the entries and becomes the last write, any other
// access is kept in its view.
//
// As the engine (engine/shadow_cell.cpp, apply_access) in such launches: an atomic keeps the reads
// before it, and the plain write before it (keep_plain_write: lane 0 stores, then every lane adds;
// the adds race with the store, not with each other). Where the engine keeps one access of a kind the
// shadow keeps another, a race may name another pair than the engine's, a race all the same: the
// engine names the last atomic, the shadow the atomics its view holds; the engine keeps each thread's
// latest access, so a thread's plain read then its relaxed read (or the reverse), or the plain write
// it made before reading some of its bytes, stand for one another there, where the shadow keeps both.
//
// Written as two halves the device calls apart (its stack holds no list of races): the races, each
// handed to `race(const GlobalRace&, bool with_last_write)`, and the shadow the access leaves.
template <typename RaceFn>
BARRACUDA_HOST_DEVICE constexpr void for_each_global_race(const GlobalShadowWord& seen, const GlobalAccess& access,
                                                          GlobalStampLayout layout, RaceFn&& race) {
  const uint32_t tag = access.stamp.tag;
  if (current_stamp(seen.write, tag) && global_concurrent(seen.write, access.stamp, layout)) {
    const GlobalStamp writer = unpack_global_stamp(seen.write, layout);
    const uint32_t writer_site = kept_global_site(seen.write_site, seen.write);
    const bool same_instruction = plain_write(access) && writer_site == access.site &&
                                  writer.block == access.stamp.block &&
                                  writer.thread / kWarpSize == access.stamp.thread / kWarpSize &&
                                  (access.same_instruction_lanes >> (writer.thread % kWarpSize) & 1u) != 0;
    if (!same_instruction) {
      const bool same_value = plain_write(access) && access.uniform && current_value(seen.value, tag) &&
                              static_cast<uint32_t>(seen.value) == access.value;
      race(GlobalRace{hazard_between(true, false, access.write, access.write && access.stamp.strong), seen.write,
                      writer_site, same_value, AccessOp::kWrite},
           true);
    }
  }
  for (uint32_t e = 0; e < kGlobalEntries; ++e) {
    const GlobalView view = view_of_entry(e);
    if (view_conflicts(view, access) && current_stamp(seen.entries[e], tag) &&
        global_concurrent(seen.entries[e], access.stamp, layout)) {
      race(GlobalRace{view_hazard(view, access), seen.entries[e], kept_global_site(seen.entry_sites[e], seen.entries[e]),
                      false, view_op(view)},
           false);
    }
  }
}

// Whether the rule would compare `access` with the value of a concurrent write of this launch that is
// not beside its stamp yet (as lags_written_value in the shared rule): the device waits for it.
constexpr bool lags_written_value(const GlobalShadowWord& seen, const GlobalAccess& access, GlobalStampLayout layout) {
  return plain_write(access) && access.uniform && current_stamp(seen.write, access.stamp.tag) &&
         global_concurrent(seen.write, access.stamp, layout) && !current_value(seen.value, access.stamp.tag);
}

// What a plain write leaves as the last write: its stamp (credited to `last_writer_thread`), site and
// uniform value.
struct GlobalWriteUpdate {
  uint64_t stamp;
  uint32_t site;
  uint64_t value;
};
constexpr GlobalWriteUpdate global_write_update(const GlobalAccess& access, GlobalStampLayout layout) {
  const uint32_t tag = access.stamp.tag;
  const uint64_t stamp =
      pack_global_stamp({tag, access.stamp.block, access.stamp.interval, access.last_writer_thread}, layout);
  return {stamp, pack_global_site(access.site, stamp), access.uniform ? (uint64_t{tag} << 32 | access.value) : 0};
}
// What any other access changes: one entry of its view (`entry` kNoEntry: nothing).
struct GlobalEntryUpdate {
  uint32_t entry;
  uint64_t stamp;
  uint32_t site;
};
constexpr GlobalEntryUpdate global_entry_update(const GlobalShadowWord& seen, const GlobalAccess& access,
                                                GlobalStampLayout layout) {
  const uint64_t me = pack_global_stamp(access.stamp, layout);
  return {entry_to_replace(seen, view_of(access), access.stamp, layout), me, pack_global_site(access.site, me)};
}

// The shadow the access leaves (the two updates above applied).
BARRACUDA_HOST_DEVICE constexpr void apply_global_access(GlobalShadowWord& word, const GlobalAccess& access,
                                                         GlobalStampLayout layout) {
  if (plain_write(access)) {
    const GlobalWriteUpdate update = global_write_update(access, layout);
    word.write = update.stamp;
    word.write_site = update.site;
    word.value = update.value;
    for (uint64_t& entry : word.entries) entry = 0;
    return;
  }
  const GlobalEntryUpdate update = global_entry_update(word, access, layout);
  if (update.entry == kNoEntry) return;
  word.entries[update.entry] = update.stamp;
  word.entry_sites[update.entry] = update.site;
}

// Both halves at once, as the host tests and the device simulator take them.
BARRACUDA_HOST_DEVICE constexpr GlobalCheckOutcome check_global_access(const GlobalShadowWord& seen,
                                                                       const GlobalAccess& access,
                                                                       GlobalStampLayout layout) {
  GlobalCheckOutcome out{seen, 0, {}};
  apply_global_access(out.next, access, layout);
  for_each_global_race(seen, access, layout,
                       [&out](const GlobalRace& race, bool) { out.races[out.race_count++] = race; });
  return out;
}

// The lanes of one warp whose accesses of one instruction (not a plain store: loads, relaxed loads,
// atomics) fall on one word in one barrier interval (`lanes`; `access` is any of them, `warp_base` the
// block-linear thread of lane 0): the shadow their lane-by-lane application in lane order leaves,
// computed at once in `word` (as apply_shared_read_lanes: a word a whole warp reads, or adds to, is
// updated once). Once an access whose thread holds no entry would change nothing, only the lanes
// holding an entry can: the others are skipped.
BARRACUDA_HOST_DEVICE constexpr void apply_global_lanes(GlobalShadowWord& word, GlobalAccess access, uint32_t lanes,
                                                        uint32_t warp_base, GlobalStampLayout layout) {
  const GlobalView view = view_of(access);
  const uint32_t first = first_entry(view);
  for (uint32_t rest = lanes; rest != 0;) {
    const uint32_t lane = lowest_lane(rest);
    rest &= rest - 1;
    access.stamp.thread = warp_base + lane;
    access.last_writer_thread = access.stamp.thread;
    apply_global_access(word, access, layout);
    if (entry_to_replace_for_others(word, view, access.stamp, layout) == kNoEntry) {
      uint32_t holders = 0;
      for (uint32_t r = first; r < first + 2; ++r) {
        const GlobalStamp held = unpack_global_stamp(word.entries[r], layout);
        if (current_stamp(word.entries[r], access.stamp.tag) && held.block == access.stamp.block &&
            held.thread >= warp_base && held.thread - warp_base < kWarpSize) {
          holders |= 1u << (held.thread - warp_base);
        }
      }
      rest &= holders;
    }
  }
}

}  // namespace barracuda

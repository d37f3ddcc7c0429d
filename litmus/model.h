#pragma once
// The litmus matrix (tests x variants x placements) and what the PTX memory model says of each cell:
// whether the weak outcome is allowed. Host-only C++ (also compiled by nvcc for the harness).
// References: PTX ISA "Memory Consistency Model" (morally strong, release/acquire patterns, causality
// order, coherence, fence-SC order).

#include <array>
#include <cstdint>
#include <string_view>


namespace litmus {

// How a location is accessed. Weak = plain ld/st (not morally strong with anything).
enum class Access : uint8_t {
  kWeak,
  kVolatile,      // ld/st.volatile: relaxed.sys in the PTX model
  kRelaxedGpu,    // ld/st.relaxed.gpu
  kRelAcqGpu,     // st.release.gpu / ld.acquire.gpu
  kRelAcqCta,     // st.release.cta / ld.acquire.cta
  kAtomicRelaxed  // atom.relaxed.gpu.exch to store, atom.relaxed.gpu.add 0 to load
};

enum class Fence : uint8_t {
  kNone,
  kMembarCta,   // membar.cta  == fence.sc.cta
  kMembarGl,    // membar.gl   == fence.sc.gpu
  kAcqRelCta,   // fence.acq_rel.cta
  kAcqRelGpu,   // fence.acq_rel.gpu
  kScCta,       // fence.sc.cta
  kScGpu,       // fence.sc.gpu
};


enum class LitmusTest : uint8_t { kMP, kSB, kLB, kIRIW, kCoRR };
inline constexpr std::array kAllTests = {LitmusTest::kMP, LitmusTest::kSB, LitmusTest::kLB, LitmusTest::kIRIW, LitmusTest::kCoRR};

// Where the test's threads live relative to each other.
enum class Placement : uint8_t { kIntraWarp, kIntraBlock, kInterBlock };
inline constexpr std::array kAllPlacements = {Placement::kIntraWarp, Placement::kIntraBlock, Placement::kInterBlock};

struct Variant {
  std::string_view name;
  Access data;  // MP's payload location; the other tests use `sync` for every access
  Access sync;  // MP's flag, and every location of SB/LB/IRIW/CoRR
  Fence fence;  // between the two accesses of each thread that has two
};

inline constexpr std::array kVariants = {
    Variant{"weak", Access::kWeak, Access::kWeak, Fence::kNone},
    Variant{"no-fence", Access::kWeak, Access::kRelaxedGpu, Fence::kNone},
    Variant{"membar.cta", Access::kWeak, Access::kRelaxedGpu, Fence::kMembarCta},
    Variant{"membar.gl", Access::kWeak, Access::kRelaxedGpu, Fence::kMembarGl},
    Variant{"fence.acq_rel.cta", Access::kWeak, Access::kRelaxedGpu, Fence::kAcqRelCta},
    Variant{"fence.acq_rel.gpu", Access::kWeak, Access::kRelaxedGpu, Fence::kAcqRelGpu},
    Variant{"fence.sc.cta", Access::kWeak, Access::kRelaxedGpu, Fence::kScCta},
    Variant{"fence.sc.gpu", Access::kWeak, Access::kRelaxedGpu, Fence::kScGpu},
    Variant{"release-acquire.cta", Access::kWeak, Access::kRelAcqCta, Fence::kNone},
    Variant{"release-acquire.gpu", Access::kWeak, Access::kRelAcqGpu, Fence::kNone},
    Variant{"atomic-relaxed", Access::kWeak, Access::kAtomicRelaxed, Fence::kNone},
    Variant{"volatile", Access::kWeak, Access::kVolatile, Fence::kNone},
};

constexpr std::string_view test_name(LitmusTest t) {
  constexpr std::array<std::string_view, 5> names = {"MP", "SB", "LB", "IRIW", "CoRR"};
  return names[static_cast<int>(t)];
}
constexpr std::string_view placement_name(Placement p) {
  constexpr std::array<std::string_view, 3> names = {"intra-warp", "intra-block", "inter-block"};
  return names[static_cast<int>(p)];
}
constexpr int thread_count(LitmusTest t) { return t == LitmusTest::kIRIW ? 4 : 2; }

// ---- The PTX memory model, reduced to the shapes above ----
enum class Scope : uint8_t { kNone, kCta, kGpu, kSys };

constexpr Scope access_scope(Access a) {
  switch (a) {
    case Access::kWeak: return Scope::kNone;
    case Access::kVolatile: return Scope::kSys;
    case Access::kRelAcqCta: return Scope::kCta;
    default: return Scope::kGpu;
  }
}
constexpr Scope fence_scope(Fence f) {
  switch (f) {
    case Fence::kNone: return Scope::kNone;
    case Fence::kMembarCta: case Fence::kAcqRelCta: case Fence::kScCta: return Scope::kCta;
    default: return Scope::kGpu;
  }
}
constexpr bool fence_is_sc(Fence f) {
  return f == Fence::kMembarCta || f == Fence::kMembarGl || f == Fence::kScCta || f == Fence::kScGpu;
}
// A scope covers two threads when both lie inside it.
constexpr bool covers(Scope s, Placement p) {
  return p == Placement::kInterBlock ? s >= Scope::kGpu : s >= Scope::kCta;
}
// Two accesses of kind `a` by the test's threads are morally strong (never a data race with each other).
constexpr bool morally_strong(Access a, Placement p) { return covers(access_scope(a), p); }
constexpr bool fence_covers(Fence f, Placement p) { return f != Fence::kNone && covers(fence_scope(f), p); }
// Release/acquire patterns: a covering fence next to the strong access, or the access's own qualifier.
constexpr bool synchronizes(const Variant& v, Placement p) {
  bool qualified = v.sync == Access::kRelAcqCta || v.sync == Access::kRelAcqGpu;
  return fence_covers(v.fence, p) || (qualified && morally_strong(v.sync, p));
}

// True when the PTX memory model allows the test's weak outcome under this variant and placement.
constexpr bool weak_outcome_allowed(LitmusTest t, const Variant& v, Placement p) {
  if (!morally_strong(v.sync, p)) return true;  // a data race: the model gives no guarantee
  switch (t) {
    case LitmusTest::kMP: return !synchronizes(v, p);  // release on the flag store, acquire on the flag load
    case LitmusTest::kLB: return !synchronizes(v, p);  // causality order would make the cycle impossible
    case LitmusTest::kSB:
    case LitmusTest::kIRIW: return !(fence_is_sc(v.fence) && fence_covers(v.fence, p));  // needs fence-SC order
    case LitmusTest::kCoRR: return false;  // coherence of morally strong accesses
  }
  return true;
}

// ---- What the race detector must say about one run of a cell ----
// A weak outcome the model allows is not always a data race: a data race needs two conflicting
// accesses that are not morally strong and not ordered by causality order. Two shapes matter here:
// * Locations that every variant accesses through `sync` (MP's flag; every location of SB, LB, IRIW,
//   CoRR) race exactly when those accesses are not morally strong: plain accesses, or `.cta` accesses
//   between blocks. Fences never make a pair of accesses morally strong, so they do not matter here:
//   SB with relaxed atomics shows the weak outcome on hardware and is still race-free.
// * MP's payload is always plain. In the detector's run the reader reads it only after it saw the flag
//   set (litmus/README.md: a reader that read the flag unset races on the payload in every variant),
//   so the payload races exactly when the flag does not synchronise: no covering release/acquire
//   pattern, or flag accesses that are not morally strong.
// * The detector departs from the PTX model for volatile (BRIEF section 4, docs/engine.md): in CUDA
//   C++ volatile is not atomic, and a volatile write that completes no fence's release pattern is an
//   ordinary write. The volatile variant has no fences, so its accesses race for the detector even
//   where the PTX model calls them morally strong (relaxed.sys). The one exception, a volatile store
//   and a *spin read* (an ld.volatile whose value decides whether its loop goes on, or whether a
//   rotated wait loop is entered: src/ptx/passes/spin_reads.h), changes no verdict: only MP's reader
//   waiting for the flag in detector runs (roles.cuh) spins, so MP volatile no longer races on its
//   flag, but its payload still races (no fences); SB, LB, IRIW and CoRR read once, not in loops, and
//   their volatile accesses race as before. strong_for_detector is about every access to `sync`, so it
//   stays false for volatile without fences.
enum class Verdict : uint8_t { kNoRace, kRace };

constexpr std::string_view verdict_name(Verdict v) { return v == Verdict::kRace ? "race" : "no race"; }

constexpr bool strong_for_detector(const Variant& v, Placement p) {
  return morally_strong(v.sync, p) && !(v.sync == Access::kVolatile && v.fence == Fence::kNone);
}

constexpr Verdict expected_detector_verdict(LitmusTest t, const Variant& v, Placement p) {
  bool sync_races = !strong_for_detector(v, p);
  bool payload_races = t == LitmusTest::kMP && !(synchronizes(v, p) && strong_for_detector(v, p));
  return sync_races || payload_races ? Verdict::kRace : Verdict::kNoRace;
}

}  // namespace litmus

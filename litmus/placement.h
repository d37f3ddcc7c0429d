#pragma once
// Randomised thread placement (Sorensen & Donaldson's "thread randomisation"): each launch assigns the
// test's roles to fresh random threads while keeping the placement's block/warp relation, and puts each
// instance's locations at random, well-spread memory slots. The detector's runs use one fixed instance
// instead (fixed_roles), so that every run of a cell is the same program. Host-only.

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "model.h"

namespace litmus {

inline constexpr int kLanes = 32;
inline constexpr int32_t kIdle = -1;

struct Geometry {
  int blocks;             // blocks that run test instances
  int threads_per_block;  // multiple of 32
  int warps_per_block() const { return threads_per_block / kLanes; }
  int threads() const { return blocks * threads_per_block; }
};

struct Assignment {
  std::vector<int32_t> role_of_thread;  // instance * 4 + role, or kIdle
  std::vector<uint32_t> location_slot;  // 2 per instance: slots of x and y
  int instances = 0;
};

// Fills about half of the threads with roles (the rest stress or idle), never two roles on one thread.
inline Assignment assign_roles(LitmusTest test, Placement placement, const Geometry& g, std::mt19937& rng) {
  const int roles = thread_count(test);
  const int warps = g.blocks * g.warps_per_block();
  std::vector<std::vector<int>> free_lanes(warps);  // shuffled free lanes of each global warp
  for (int w = 0; w < warps; ++w) {
    free_lanes[w].resize(kLanes);
    for (int l = 0; l < kLanes; ++l) free_lanes[w][l] = l;
    std::shuffle(free_lanes[w].begin(), free_lanes[w].end(), rng);
  }
  Assignment a;
  a.role_of_thread.assign(g.threads(), kIdle);
  const int target = g.threads() / (2 * roles);
  auto take = [&](int warp, int instance, int role) {
    int lane = free_lanes[warp].back();
    free_lanes[warp].pop_back();
    a.role_of_thread[warp * kLanes + lane] = instance * 4 + role;
  };
  auto pick = [&](int lo, int count) { return lo + static_cast<int>(rng() % static_cast<unsigned>(count)); };
  const int wpb = g.warps_per_block();
  for (int attempt = 0; a.instances < target && attempt < 8 * target; ++attempt) {
    std::vector<int> chosen;  // global warp of each role
    if (placement == Placement::kIntraWarp) {
      int w = pick(0, warps);
      if (static_cast<int>(free_lanes[w].size()) < roles) continue;
      chosen.assign(roles, w);
    } else {
      // Distinct warps of one block, or warps of distinct blocks.
      int block = pick(0, g.blocks);
      for (int r = 0; r < roles; ++r) {
        int w = placement == Placement::kIntraBlock ? block * wpb + pick(0, wpb) : pick(0, warps);
        chosen.push_back(w);
      }
      bool distinct = true;
      for (int i = 0; i < roles; ++i) {
        for (int j = 0; j < i; ++j) {
          bool same = placement == Placement::kIntraBlock ? chosen[i] == chosen[j] : chosen[i] / wpb == chosen[j] / wpb;
          distinct = distinct && !same;
        }
        distinct = distinct && !free_lanes[chosen[i]].empty();
      }
      if (!distinct) continue;
    }
    for (int r = 0; r < roles; ++r) take(chosen[r], a.instances, r);
    ++a.instances;
  }
  a.location_slot.resize(2 * a.instances);
  for (uint32_t i = 0; i < a.location_slot.size(); ++i) a.location_slot[i] = i;
  std::shuffle(a.location_slot.begin(), a.location_slot.end(), rng);
  return a;
}

// One instance on fixed threads: lanes 0..n-1 of warp 0 (intra-warp), lane 0 of warps 0..n-1 of block 0
// (intra-block), thread 0 of blocks 0..n-1 (inter-block); x in slot 0, y in slot 1. The geometry must
// have at least 4 warps per block and 4 blocks (IRIW's four threads).
inline Assignment fixed_roles(LitmusTest test, Placement placement, const Geometry& g) {
  Assignment a;
  a.role_of_thread.assign(g.threads(), kIdle);
  for (int role = 0; role < thread_count(test); ++role) {
    int thread = placement == Placement::kIntraWarp    ? role
                 : placement == Placement::kIntraBlock ? role * kLanes
                                                       : role * g.threads_per_block;
    a.role_of_thread[thread] = role;
  }
  a.location_slot = {0, 1};
  a.instances = 1;
  return a;
}

}  // namespace litmus

#pragma once
// A deliberately naive race detector, the engine's oracle in the differential test: one full
// vector clock per thread (three: strict, scope-agnostic, and assuming spins acquire), one history per byte, no epochs, no
// compression, no barrier or warp tricks. It decodes the same records (affine addresses only) and
// implements the same documented rules (see src/engine/shadow_cell.h, conflict_checker.cpp,
// worker.cpp) in the most direct way.
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "barracuda/record_view.h"
#include "engine/findings.h"
#include "engine/launch.h"

namespace barracuda::engine::test {

// A race as the differential test compares it: sorted site pair, class, hazard, and whether it is an
// unfenced acquire (in every occurrence).
using RaceKey = std::tuple<uint32_t, uint32_t, RaceClass, Hazard, bool>;

class ReferenceDetector {
 public:
  explicit ReferenceDetector(const LaunchInfo& launch);
  void apply(const RecordHeader& h);
  void finish();

  std::set<RaceKey> races() const;
  const std::set<uint32_t>& divergent_barriers() const { return divergent_; }
  std::set<uint32_t> redundant_barriers() const;

 private:
  using Clocks = std::vector<uint32_t>;
  struct Access {
    uint32_t thread, clock, site, record, generation;
    bool write, read, atomic, strong;
    // A volatile store and a volatile load are morally strong (relaxed.sys both) exactly when the load
    // is a spin read.
    bool volatile_store, volatile_load, spin_read;
    bool raced_strong_write = false;  // a kept read a strong write raced with (shadow_cell.cpp)
    MemoryScope scope;
  };
  struct ByteHistory {
    std::optional<Access> write;
    // While `write` is an atomic, the latest atomic of another thread since the last other write: a
    // plain access checks it too (as the engine's LocationHistory::other_atomic).
    std::optional<Access> other_atomic;
    std::map<uint32_t, Access> reads;  // by thread
  };
  struct Thread {
    Clocks strict, wide, assumed;  // assumed: strict + what spins on legacy atomics acquire
    std::optional<std::pair<uint64_t, MemoryScope>> last_read;
    std::optional<MemoryScope> pending_release;
    std::optional<MemoryScope> last_read_fenced;  // the scope of the fence that last acquired from last_read
  };
  struct Warp {
    uint32_t live = 0, path = 0, arrived = 0;
    bool exited = false;
  };
  struct Block {
    std::vector<Warp> warps;
    bool pending = false;
    uint32_t pending_site = 0;
    std::vector<uint32_t> barrier_sites;  // completed barriers in order: index = generation
    bool acquired_beyond_block = false;   // an acquire at cluster scope or wider since the latest barrier
    std::map<uint64_t, Clocks> cta_sync, cta_assumed;
    std::map<uint64_t, ByteHistory> shared;
  };

  uint32_t block_of(uint32_t thread) const { return thread / per_block_; }
  uint32_t global_thread(uint32_t block, uint32_t local) const { return block * per_block_ + local; }
  static void join_into(Clocks& into, const Clocks& from);
  void sync_threads(const std::vector<uint32_t>& threads);
  void complete_barrier(uint32_t block);
  void settle(uint32_t block, uint32_t warp, uint32_t lanes);
  void release(uint32_t thread, uint64_t address, MemoryScope scope);
  void acquire(uint32_t thread, uint64_t address, MemoryScope scope);
  void acquire_assumed(uint32_t thread, uint64_t address, MemoryScope scope);
  void access(const RecordHeader& h, uint32_t lane, uint64_t address);
  // True where the pair races (and is recorded).
  bool check(const Access& earlier, const Access& current, const RecordHeader& h);
  bool covers(MemoryScope scope, uint32_t a, uint32_t b) const;

  LaunchInfo launch_;
  uint32_t per_block_;
  uint32_t record_ = 0;
  std::vector<Thread> threads_;
  std::vector<Block> blocks_;
  std::map<uint64_t, ByteHistory> global_;
  std::map<std::pair<uint32_t, uint64_t>, Clocks> cluster_sync_, cluster_assumed_;
  std::map<uint64_t, Clocks> gpu_sync_, wide_sync_, gpu_assumed_;
  std::map<std::tuple<uint32_t, uint32_t, RaceClass, Hazard>, bool> races_;  // -> unfenced in every occurrence
  std::set<uint32_t> divergent_, executed_, useful_;
};

}  // namespace barracuda::engine::test

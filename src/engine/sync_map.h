#pragma once
// Synchronisation locations at cluster and gpu scope: the clock released to each address, shared by
// all workers. Block-scope locations live in each BlockState (one worker owns a block).
#include <cstdint>

#include <tbb/concurrent_hash_map.h>

#include "engine/knowledge.h"

namespace barracuda::engine {

class SyncMap {
 public:
  // Domain of gpu/system-scope releases; cluster-scope releases use the cluster index.
  static constexpr uint32_t kGpuDomain = ~0u;

  // Joins a release's clocks (`strict`, `unfenced` and its origin; `wide` is ignored) into the
  // location of `domain`.
  void release(uint32_t domain, uint64_t address, const Knowledge& released);
  // Joins a release's scope-agnostic clock (Knowledge::wide): every release, whatever its scope.
  void release_wide(uint64_t address, const SharedClock& wide);
  // The clocks released to the location of `domain` (`wide` is kept in the gpu domain only).
  Knowledge acquire(uint32_t domain, uint64_t address) const;
  void clear() { map_.clear(); }

 private:
  struct Key {
    uint64_t address;
    uint32_t domain;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t hash(const Key& k) const { return (k.address * 0x9E3779B97F4A7C15ull) ^ k.domain; }
    bool equal(const Key& a, const Key& b) const { return a == b; }
  };
  using Map = tbb::concurrent_hash_map<Key, Knowledge, KeyHash>;
  Map map_;
};

}  // namespace barracuda::engine

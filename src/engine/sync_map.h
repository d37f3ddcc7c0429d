#pragma once
// Synchronisation locations at cluster and gpu scope: the clock released to each address, shared by
// all workers. Block-scope locations live in each BlockState (one worker owns a block).
#include <array>
#include <atomic>
#include <cstdint>

#include <tbb/concurrent_hash_map.h>

#include "engine/knowledge.h"

namespace barracuda::engine {

class SyncMap {
 public:
  // Domain of gpu/system-scope releases; cluster-scope releases use the cluster index.
  static constexpr uint32_t kGpuDomain = ~0u;

  // Joins a release's clocks (`strict`, `unfenced` and its origin; `wide` is ignored) into the
  // location of cluster `cluster`.
  void release_to_cluster(uint32_t cluster, uint64_t address, const Knowledge& released);
  // Every release, whatever its scope, joins its scope-agnostic clock `wide` into the gpu domain's
  // location; one of gpu scope or wider (`reaches_gpu`) joins its other clocks too, in the same
  // lookup (a lock hand-off releases once per holder).
  void release_to_gpu(uint64_t address, const Knowledge& released, const SharedClock& wide, bool reaches_gpu);
  // The clocks released to the location of `domain` (`wide` is kept in the gpu domain only).
  Knowledge acquire(uint32_t domain, uint64_t address) const;
  // False when no release was ever made to `address` in any domain: most atomics (a histogram's
  // atomicAdd, every spin of a lock nobody released yet) then skip the map and its locks. A release
  // sets the bit before its clocks enter the map, so a reader that is ordered after the release (its
  // sync ticket) sees both.
  bool may_hold(uint64_t address) const {
    const uint64_t slot = filter_slot(address);
    return (filter_[slot / 64].load(std::memory_order_relaxed) >> (slot % 64)) & 1;
  }
  // Forgets every release. The map keeps its entries (up to kMaxKeptEntries) for the next launch, a
  // generation marking them stale: a lock-heavy launch would otherwise free and rebuild thousands of
  // entries and their buckets every time.
  void clear() {
    ++generation_;
    if (map_.size() > kMaxKeptEntries) map_.clear();
    for (std::atomic<uint64_t>& word : filter_) word.store(0, std::memory_order_relaxed);
  }

 private:
  struct Key {
    uint64_t address;
    uint32_t domain;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    // The map picks a bucket by the hash's low bits: fold the product's well-mixed high half into
    // them (a plain product keeps an aligned address's zero low bits, and lock words a struct apart
    // then share a few buckets: hash_table's releases walked chains of them).
    size_t hash(const Key& k) const {
      const uint64_t mixed = (k.address ^ (uint64_t{k.domain} << 32)) * 0x9E3779B97F4A7C15ull;
      return mixed ^ (mixed >> 32);
    }
    bool equal(const Key& a, const Key& b) const { return a == b; }
  };
  struct Entry {
    Knowledge knowledge;
    uint64_t generation = 0;  // the clear() this entry was last written after; stale unless current
  };
  using Map = tbb::concurrent_hash_map<Key, Entry, KeyHash>;
  static constexpr size_t kMaxKeptEntries = size_t{1} << 16;
  // The entry of `key` for this generation, emptied first if it is stale.
  static Knowledge& current(Map::accessor& entry, uint64_t generation) {
    if (entry->second.generation != generation) entry->second = {{}, generation};
    return entry->second.knowledge;
  }
  // One-hash Bloom filter over released addresses: 64 Ki bits.
  static constexpr uint64_t kFilterBits = uint64_t{1} << 16;
  static uint64_t filter_slot(uint64_t address) { return (address * 0x9E3779B97F4A7C15ull) >> (64 - 16); }
  void note_release(uint64_t address) {
    const uint64_t slot = filter_slot(address);
    filter_[slot / 64].fetch_or(uint64_t{1} << (slot % 64), std::memory_order_relaxed);
  }

  Map map_;
  uint64_t generation_ = 1;  // written by clear() only, while no worker uses the map
  std::array<std::atomic<uint64_t>, kFilterBits / 64> filter_{};
};

}  // namespace barracuda::engine

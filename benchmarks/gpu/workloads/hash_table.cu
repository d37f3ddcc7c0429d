// hash_table (lock-based GPU hash map, as in word counting / group-by aggregation): counts occurrences
// of skewed keys in a bucketed table. Each bucket has a spin lock taken with atomicCAS; the holder
// (between __threadfence() after acquiring and before releasing with atomicExch) reads and writes the
// bucket's slots with plain loads and stores, moving on to the next bucket when this one is full.
// A lookup kernel then reads every key's count back.
// Check: CPU counts, exact, and the number of occupied slots equals the number of distinct keys.
// Timed: `repetitions` builds from an empty table, each followed by the lookups.
#include <algorithm>
#include <numeric>
#include <sstream>
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr std::uint32_t kInserts = 1u << 22;
constexpr std::uint32_t kDistinctIds = 1u << 20;
constexpr std::uint32_t kBucketBits = 18;
constexpr std::uint32_t kBuckets = 1u << kBucketBits;
constexpr std::uint32_t kSlots = 8;  // per bucket: capacity 2x the distinct keys
constexpr int kThreads = 256;
constexpr int kRepetitionsAtFullScale = 60;

struct Table {
  std::uint32_t* locks;        // kBuckets: 0 free, 1 held
  std::uint32_t* used;         // kBuckets: slots filled, guarded by the bucket's lock
  std::uint32_t* slot_keys;    // kBuckets * kSlots
  std::uint32_t* slot_counts;  // kBuckets * kSlots
};

// The murmur3 finaliser: a bijection on 32-bit values, so distinct ids give distinct keys.
__host__ __device__ std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  return x ^ (x >> 16);
}

__device__ std::uint32_t home_bucket(std::uint32_t key) { return (key * 2654435761u) >> (32 - kBucketBits); }

__device__ int find_slot(const Table& t, std::uint32_t bucket, std::uint32_t key) {
  for (std::uint32_t s = 0; s < t.used[bucket]; ++s) {
    if (t.slot_keys[bucket * kSlots + s] == key) return static_cast<int>(s);
  }
  return -1;
}

// Returns true when the key was counted in this bucket, false when the bucket is full.
__device__ bool count_in_locked_bucket(const Table& t, std::uint32_t bucket, std::uint32_t key) {
  const int slot = find_slot(t, bucket, key);
  if (slot >= 0) {
    ++t.slot_counts[bucket * kSlots + slot];
    return true;
  }
  const std::uint32_t used = t.used[bucket];
  if (used == kSlots) return false;
  t.slot_keys[bucket * kSlots + used] = key;
  t.slot_counts[bucket * kSlots + used] = 1;
  t.used[bucket] = used + 1;
  return true;
}

__global__ void insert_keys(Table t, const std::uint32_t* keys) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kInserts) return;
  const std::uint32_t key = keys[i];
  std::uint32_t bucket = home_bucket(key);
  bool counted = false;
  while (!counted) {
    // The critical section sits inside the successful branch so that lanes of one warp waiting for
    // each other's locks still make progress.
    if (atomicCAS(&t.locks[bucket], 0u, 1u) == 0u) {
      __threadfence();
      counted = count_in_locked_bucket(t, bucket, key);
      __threadfence();
      atomicExch(&t.locks[bucket], 0u);
      if (!counted) bucket = (bucket + 1) % kBuckets;
    }
  }
}

__global__ void look_up_counts(Table t, std::uint32_t* counts) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= kDistinctIds) return;
  const std::uint32_t key = mix(id);
  std::uint32_t count = 0;
  for (std::uint32_t bucket = home_bucket(key), probed = 0; probed < kBuckets;
       bucket = (bucket + 1) % kBuckets, ++probed) {
    const int slot = find_slot(t, bucket, key);
    if (slot >= 0) {
      count = t.slot_counts[bucket * kSlots + slot];
      break;
    }
    if (t.used[bucket] < kSlots) break;  // an insert would have stopped here
  }
  counts[id] = count;
}

}  // namespace

namespace bench {

const char* const workload_name = "hash_table";

Outcome run_workload(const Options& options) {
  Random random(15);
  std::vector<std::uint32_t> keys(kInserts), want(kDistinctIds, 0);
  for (auto& key : keys) {
    const std::uint32_t id = random.below(1 + random.below(kDistinctIds));  // skewed towards small ids
    key = mix(id);
    ++want[id];
  }

  DeviceBuffer<std::uint32_t> dev_keys(keys), locks(kBuckets), used(kBuckets), slot_keys(kBuckets * kSlots),
      slot_counts(kBuckets * kSlots), counts(kDistinctIds);
  const Table table{locks.get(), used.get(), slot_keys.get(), slot_counts.get()};
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    check(cudaMemsetAsync(locks.get(), 0, locks.bytes()), "clear locks");
    check(cudaMemsetAsync(used.get(), 0, used.bytes()), "clear buckets");
    insert_keys<<<(kInserts + kThreads - 1) / kThreads, kThreads>>>(table, dev_keys.get());
    look_up_counts<<<(kDistinctIds + kThreads - 1) / kThreads, kThreads>>>(table, counts.get());
  });
  check_kernel("hash table kernels");

  std::string failure = compare_exact<std::uint32_t>("count", counts.download(), want);
  if (failure.empty()) {
    const auto occupancy = used.download();
    const auto slots = std::accumulate(occupancy.begin(), occupancy.end(), std::uint64_t{0});
    const auto distinct = std::count_if(want.begin(), want.end(), [](std::uint32_t c) { return c > 0; });
    if (slots != static_cast<std::uint64_t>(distinct)) {
      std::ostringstream out;
      out << slots << " occupied slots for " << distinct << " distinct keys";
      failure = out.str();
    }
  }
  return {ms, failure};
}

}  // namespace bench

// A lock-based hash table counting skewed keys (gpubench hash_table, small): each bucket has a spin
// lock (atomicCAS, __threadfence() ... __threadfence(), atomicExch) guarding its used count, keys and
// counts; a full bucket sends the key on to the next one. Every lane takes locks, so lanes of a warp
// contend for the same bucket. Race-free.
#include "suite.cuh"

constexpr unsigned BUCKETS = 64, SLOTS = 4, INSERTS = 4096, DISTINCT = 160;

struct Table {
  unsigned* locks;
  unsigned* used;
  unsigned* keys;
  unsigned* counts;
};

__device__ bool count_in_locked_bucket(const Table& t, unsigned bucket, unsigned key) {
  for (unsigned s = 0; s < t.used[bucket]; ++s) {
    if (t.keys[bucket * SLOTS + s] == key) {
      ++t.counts[bucket * SLOTS + s];
      return true;
    }
  }
  const unsigned used = t.used[bucket];
  if (used == SLOTS) return false;
  t.keys[bucket * SLOTS + used] = key;
  t.counts[bucket * SLOTS + used] = 1;
  t.used[bucket] = used + 1;
  return true;
}

__global__ void insert(Table t) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned id = (i * 7919u) % (1 + i % DISTINCT);  // skewed towards small ids
  const unsigned key = id * 2654435761u + 1;
  unsigned bucket = (key >> 7) % BUCKETS;
  bool counted = false;
  while (!counted) {
    if (atomicCAS(&t.locks[bucket], 0u, 1u) == 0u) {
      __threadfence();
      counted = count_in_locked_bucket(t, bucket, key);
      __threadfence();
      atomicExch(&t.locks[bucket], 0u);
      if (!counted) bucket = (bucket + 1) % BUCKETS;
    }
  }
}

int main() {
  Table t{zeroed<unsigned>(BUCKETS), zeroed<unsigned>(BUCKETS), zeroed<unsigned>(BUCKETS * SLOTS),
          zeroed<unsigned>(BUCKETS * SLOTS)};
  insert<<<INSERTS / 256, 256>>>(t);
  unsigned total = 0;
  for (unsigned s = 0; s < BUCKETS * SLOTS; ++s) total += fetch(t.counts + s);
  return finish("bucket_locks_probing", total);
}
// EXPECT: no-race

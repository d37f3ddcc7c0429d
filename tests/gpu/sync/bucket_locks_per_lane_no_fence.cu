// Per-bucket spin locks taken by every lane and released without a fence: 8 buckets for 512 threads, so lanes
// of one warp contend for one lock. The critical section sits inside the successful branch (lanes
// waiting for a block-mate's lock still make progress under independent thread scheduling):
// atomicCAS, __threadfence(), plain read-modify-write of the bucket, then atomicExch with no fence
// before it: the next holder's read of the bucket races with this holder's write.
#include "suite.cuh"

constexpr unsigned BUCKETS = 8;

__global__ void count_in_buckets(unsigned* locks, unsigned* counts, unsigned* last) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned bucket = (id * 2654435761u) >> 29;  // 8 buckets
  bool done = false;
  while (!done) {
    if (atomicCAS(&locks[bucket], 0u, 1u) == 0u) {
      __threadfence();
      counts[bucket] = counts[bucket] + 1;  // @A
      last[bucket] = id;
      atomicExch(&locks[bucket], 0u);
      done = true;
    }
  }
}

int main() {
  unsigned* locks = zeroed<unsigned>(BUCKETS);
  unsigned* counts = zeroed<unsigned>(BUCKETS);
  unsigned* last = zeroed<unsigned>(BUCKETS);
  count_in_buckets<<<4, 128>>>(locks, counts, last);
  unsigned total = 0;
  for (unsigned b = 0; b < BUCKETS; ++b) total += fetch(counts + b);
  return finish("bucket_locks_per_lane_no_fence", total);
}
// EXPECT: race inter-block global RAW A A

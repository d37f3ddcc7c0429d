// Warp-aggregated ranking, as CUB's onesweep radix sort does it: the lanes holding one digit elect a
// leader, the leader alone adds their count to a shared counter (a logged atomic inside a divergent
// branch), and a __shfl_sync from the leader gives every lane its offset. Then CUB's own
// DeviceRadixSort::SortPairs over a million pairs, checked in full (thrust_sort.cu checks only the ends).
//
// Race-free, and the output must be the same under barracuda: at 32 M pairs (gpubench cub_radix_sort)
// an instrumented onesweep launch computes duplicate ranks and a wrong sort (README, Known problems).
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kDigits = 16;
constexpr int kKeysPerThread = 8;
constexpr int kThreads = 256;
constexpr int kBlocks = 64;
constexpr int kWarps = kThreads / 32;

__global__ void rank_digits(const unsigned* digits, int* ranks) {
  __shared__ int counts[kWarps][kDigits];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x < kWarps * kDigits) counts[threadIdx.x / kDigits][threadIdx.x % kDigits] = 0;
  __syncthreads();
  for (int k = 0; k < kKeysPerThread; ++k) {
    const int index = (blockIdx.x * kKeysPerThread + k) * kThreads + threadIdx.x;
    const unsigned digit = digits[index];
    const unsigned peers = __match_any_sync(0xffffffffu, digit);
    const int leader = 31 - __clz(peers);
    const int below = __popc(peers & ((2u << lane) - 1));
    int offset = 0;
    if (lane == leader) offset = atomicAdd(&counts[warp][digit], __popc(peers));
    offset = __shfl_sync(0xffffffffu, offset, leader);
    ranks[index] = offset + below - 1;
  }
}

// Ranks within each (block, warp, digit) must be 0..n-1, each once.
int duplicate_ranks(const std::vector<unsigned>& digits, const std::vector<int>& ranks) {
  int duplicates = 0;
  for (int block = 0; block < kBlocks; ++block) {
    for (int warp = 0; warp < kWarps; ++warp) {
      std::vector<std::vector<int>> seen(kDigits, std::vector<int>(32 * kKeysPerThread, 0));
      for (int k = 0; k < kKeysPerThread; ++k) {
        for (int lane = 0; lane < 32; ++lane) {
          const int index = (block * kKeysPerThread + k) * kThreads + warp * 32 + lane;
          const int rank = ranks[index];
          if (rank < 0 || rank >= 32 * kKeysPerThread || seen[digits[index]][rank]++ > 0) ++duplicates;
        }
      }
    }
  }
  return duplicates;
}

int check_radix_sort(int log2_items) {
  const int kItems = 1 << log2_items;
  std::vector<unsigned> keys(kItems), values(kItems);
  for (int i = 0; i < kItems; ++i) {
    keys[i] = (static_cast<unsigned>(i) * 2654435761u) >> 8;
    values[i] = i;
  }
  unsigned *keys_in, *keys_out, *values_in, *values_out;
  cudaMalloc(&keys_in, kItems * sizeof(unsigned));
  cudaMalloc(&keys_out, kItems * sizeof(unsigned));
  cudaMalloc(&values_in, kItems * sizeof(unsigned));
  cudaMalloc(&values_out, kItems * sizeof(unsigned));
  cudaMemcpy(keys_in, keys.data(), kItems * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(values_in, values.data(), kItems * sizeof(unsigned), cudaMemcpyHostToDevice);
  size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys_in, keys_out, values_in, values_out, kItems);
  void* temp;
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, values_in, values_out, kItems);
  std::vector<unsigned> sorted(kItems), order(kItems);
  cudaMemcpy(sorted.data(), keys_out, kItems * sizeof(unsigned), cudaMemcpyDeviceToHost);
  if (cudaMemcpy(order.data(), values_out, kItems * sizeof(unsigned), cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("radix sort: CUDA error\n");
    return 1;
  }
  int wrong = 0;
  for (int i = 0; i < kItems; ++i) {
    const bool in_order = i == 0 || sorted[i - 1] < sorted[i] || (sorted[i - 1] == sorted[i] && order[i - 1] < order[i]);
    if (!in_order || order[i] >= static_cast<unsigned>(kItems) || keys[order[i]] != sorted[i]) ++wrong;
  }
  std::printf("radix sort of %d pairs: %d positions wrong\n", kItems, wrong);
  return wrong != 0;
}

}  // namespace

// argv[1]: log2 of the radix sort's pair count (20 unless given).
int main(int argc, char** argv) {
  const int log2_items = argc > 1 ? std::atoi(argv[1]) : 20;
  if (log2_items < 1 || log2_items > 28) {
    std::printf("usage: %s [log2 of the pairs to sort, 1-28]\n", argv[0]);
    return 2;
  }
  constexpr int kKeys = kBlocks * kThreads * kKeysPerThread;
  std::vector<unsigned> digits(kKeys);
  for (int i = 0; i < kKeys; ++i) digits[i] = (static_cast<unsigned>(i) * 2654435761u >> 13) % kDigits;
  unsigned* device_digits;
  int* device_ranks;
  cudaMalloc(&device_digits, kKeys * sizeof(unsigned));
  cudaMalloc(&device_ranks, kKeys * sizeof(int));
  cudaMemcpy(device_digits, digits.data(), kKeys * sizeof(unsigned), cudaMemcpyHostToDevice);
  rank_digits<<<kBlocks, kThreads>>>(device_digits, device_ranks);
  std::vector<int> ranks(kKeys);
  if (cudaMemcpy(ranks.data(), device_ranks, kKeys * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("ranks: CUDA error\n");
    return 1;
  }
  const int duplicates = duplicate_ranks(digits, ranks);
  std::printf("warp-aggregated ranks of %d keys: %d duplicates\n", kKeys, duplicates);
  return check_radix_sort(log2_items) || duplicates != 0;
}

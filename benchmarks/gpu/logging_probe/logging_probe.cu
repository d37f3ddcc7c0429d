// Where the GPU time of logging goes: every warp of a full grid publishes records into per-SM rings
// the way device/runtime.cu does (leader reserves with an atomic, writes the header, publishes word 0
// last), and each variant leaves one ingredient out or changes it. Prints records/s per variant.
// No host drain: the rings are sized so that nothing wraps. Not part of the detector; run by hand:
//   logging_probe [records-per-warp]
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;

enum Variant : int {
  kCurrent,         // atomic reserve, acquire of the read-head cache, 3 x 8 B tail, fence.sc.sys, 8 B word 0
  kNoFence,         // kCurrent without the fence
  kNoAcquire,       // kCurrent with a relaxed read of the read-head cache
  kVectorTail,      // tail as one 8 B + one 16 B store
  kCoalescedHeader, // 4 lanes write the 4 header words in one warp store (no fence, no publish order)
  kDeviceRing,      // kCurrent into a ring in device memory
  kAtomicOnly,      // just the reservation
  kVariantCount
};
const char* const kNames[] = {"current protocol", "no fence", "no acquire load", "vector tail stores",
                              "coalesced 32 B header", "ring in device memory", "reservation only"};

struct Rings {
  unsigned long long* write_heads;  // device, one 128-byte line per SM
  unsigned long long* read_heads;   // device
  uint64_t* ring;                   // host-mapped or device
  uint64_t slots_per_sm;
};

__device__ __forceinline__ uint32_t sm_id() {
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}

template <int V>
__global__ void log_records(Rings rings, int records_per_warp) {
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t sm = sm_id();
  unsigned long long* head = rings.write_heads + sm * 16;
  for (int r = 0; r < records_per_warp; ++r) {
    uint64_t position = 0;
    if (lane == 0) {
      position = atomicAdd(head, 1ull);
      if (V == kNoAcquire) {
        position += *reinterpret_cast<volatile unsigned long long*>(rings.read_heads + sm * 16);
      } else if (V != kAtomicOnly) {
        uint64_t cached;
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(cached) : "l"(rings.read_heads + sm * 16) : "memory");
        position += cached;
      }
    }
    position = __shfl_sync(0xffffffffu, position, 0);
    uint64_t* slot = rings.ring + (sm * rings.slots_per_sm + position % rings.slots_per_sm) * 4;
    const uint64_t word = (uint64_t{blockIdx.x} << 32) | (threadIdx.x << 8) | 1;
    if (V == kAtomicOnly) continue;
    if (V == kCoalescedHeader) {
      if (lane < 4) slot[lane] = word + lane;
      __syncwarp();
      continue;
    }
    if (lane == 0) {
      if (V == kVectorTail) {
        slot[1] = word + 1;
        asm volatile("st.global.v2.u64 [%0], {%1, %2};" ::"l"(slot + 2), "l"(word + 2), "l"(word + 3) : "memory");
      } else {
        slot[1] = word + 1;
        slot[2] = word + 2;
        slot[3] = word + 3;
      }
      if (V != kNoFence) __threadfence_system();
      *reinterpret_cast<volatile uint64_t*>(slot) = word;
    }
    __syncwarp();
  }
}

void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    std::fprintf(stderr, "logging_probe: %s: %s\n", what, cudaGetErrorString(error));
    std::exit(1);
  }
}

template <int V>
void launch(dim3 grid, Rings rings, int records_per_warp) {
  log_records<V><<<grid, kThreads>>>(rings, records_per_warp);
}

using Launcher = void (*)(dim3, Rings, int);
const Launcher kLaunchers[] = {launch<kCurrent>, launch<kNoFence>, launch<kNoAcquire>, launch<kVectorTail>,
                               launch<kCoalescedHeader>, launch<kDeviceRing>, launch<kAtomicOnly>};

}  // namespace

int main(int argc, char** argv) {
  const int records_per_warp = argc > 1 ? std::atoi(argv[1]) : 256;
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::printf("logging_probe: no GPU\n");
    return 77;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  const int sms = prop.multiProcessorCount;
  const dim3 grid(sms * kBlocksPerSm);
  const uint64_t records = uint64_t{grid.x} * (kThreads / 32) * records_per_warp;
  const uint64_t slots_per_sm = uint64_t{1} << 16;  // 2 MiB per SM: positions wrap within it, never read
  Rings rings{};
  check(cudaMalloc(&rings.write_heads, sms * 128), "write heads");
  check(cudaMalloc(&rings.read_heads, sms * 128), "read heads");
  check(cudaMemset(rings.read_heads, 0, sms * 128), "read heads");
  rings.slots_per_sm = slots_per_sm;
  const size_t ring_bytes = static_cast<size_t>(sms) * slots_per_sm * 32;
  uint64_t* host_ring = nullptr;
  uint64_t* device_ring = nullptr;
  check(cudaHostAlloc(&host_ring, ring_bytes, cudaHostAllocMapped), "host ring");
  check(cudaMalloc(&device_ring, ring_bytes), "device ring");
  uint64_t* host_ring_on_device = nullptr;
  check(cudaHostGetDevicePointer(&host_ring_on_device, host_ring, 0), "mapped pointer");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::printf("%s, %d SMs, %d blocks x %d threads, %d records per warp: %llu records per run\n", prop.name, sms,
              grid.x, kThreads, records_per_warp, static_cast<unsigned long long>(records));
  for (int v = 0; v < kVariantCount; ++v) {
    rings.ring = v == kDeviceRing ? device_ring : host_ring_on_device;
    for (int run = 0; run < 2; ++run) {  // the first run warms up
      check(cudaMemset(rings.write_heads, 0, sms * 128), "write heads");
      check(cudaEventRecord(start), "record");
      kLaunchers[v](grid, rings, records_per_warp);
      check(cudaEventRecord(stop), "record");
      check(cudaEventSynchronize(stop), kNames[v]);
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
      if (run == 1) std::printf("%-24s %9.3f ms %8.1f M records/s\n", kNames[v], ms, records / (ms * 1e3));
    }
  }
  return 0;
}

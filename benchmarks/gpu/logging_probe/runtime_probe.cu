// Where the GPU time of the REAL device runtime goes (issue #9): calls device/runtime.cu's
// __barracuda_log_access from a full grid, linked the way instrumented modules link it (a separate
// relocatable sm_90 object, register-capped), and times it. Built once per runtime variant (a copy
// of runtime.cu with one ingredient removed: runtime_variant.cmake); every binary prints one line.
//
// The queues are set up as the host runtime sets them up (queue.h), except that each ring's
// read_head_cache starts far ahead: no producer ever waits, positions wrap over unread slots, and
// no host drain is needed. Not part of the detector; run by hand:
//   runtime_probe_<variant> [calls-per-thread]
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "barracuda/queue.h"
#ifdef RTPROBE_INLINE_RUNTIME
#include "runtime.cu"  // variant "inline": the runtime compiled into this translation unit
#else
#include "entry_points.cuh"
#endif

#ifndef RTPROBE_VARIANT
#error "RTPROBE_VARIANT names the runtime variant this binary links"
#endif

// Defined by the runtime object, which carries no host-side shadow of it (it is built from PTX, as
// the shipped one is): only device code can set it.
extern "C" __device__ barracuda::QueueProducerHeader* __barracuda_queues;

namespace {

__global__ void set_queues(barracuda::QueueProducerHeader* producers) { __barracuda_queues = producers; }

using namespace barracuda;

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;  // 64 warps per SM where the registers allow it
constexpr uint64_t kRingSlots = uint64_t{1} << 14;
constexpr uint64_t kNeverFull = uint64_t{1} << 62;  // read_head_cache: the ring never looks full
constexpr int kAppTile = 1024;                      // floats of the app kernel's shared tile

enum class Pattern : int {
  kGlobalLoad,     // weak 4-byte global load, affine addresses (the common case in the workloads)
  kGlobalStore,    // weak 4-byte global store with its value (same-value check: second match.any)
  kSharedLoad,     // 4-byte shared load, affine
  kGenericLoad,    // 4-byte load through a generic pointer to global (isspacep classification)
};
constexpr Pattern kPatterns[] = {Pattern::kGlobalLoad, Pattern::kGlobalStore, Pattern::kSharedLoad,
                                 Pattern::kGenericLoad};
const char* const kPatternNames[] = {"global_ld", "global_st", "shared_ld", "generic_ld"};

__device__ __forceinline__ uint32_t info_for(Pattern pattern) {
  const auto weak = [](MemorySpace space) { return pack_space_sem(space, MemorySemantics::kWeak, MemoryScope::kCta); };
  switch (pattern) {
    case Pattern::kGlobalLoad: return pack_access_info(RecordOp::kLoad, weak(MemorySpace::kGlobal), 2, 0);
    case Pattern::kGlobalStore:
      return pack_access_info(RecordOp::kStore, weak(MemorySpace::kGlobal), 2, kAccessHasValue);
    case Pattern::kSharedLoad: return pack_access_info(RecordOp::kLoad, weak(MemorySpace::kShared), 2, 0);
    case Pattern::kGenericLoad:
      return pack_access_info(RecordOp::kLoad, weak(MemorySpace::kGlobal), 2, kAccessGeneric);
  }
  return 0;
}

// Each thread logs `calls` accesses to consecutive words: one affine record per warp and call.
template <Pattern P>
__global__ void log_loop(const float* data, int calls) {
  const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t base = P == Pattern::kSharedLoad ? 0 : reinterpret_cast<uint64_t>(data);
  for (int call = 0; call < calls; ++call) {
    const uint64_t word = P == Pattern::kSharedLoad ? threadIdx.x : uint64_t{thread} + call * 32u;
    __barracuda_log_access(base + 4 * word, 1 + call % 4, info_for(P), thread);
  }
}

// The application's own code: a gemm-like inner loop of shared loads and FMAs. With kLogged every
// shared load is preceded by its logging call, as the instrumentation passes insert it.
template <bool kLogged>
__global__ void app_loop(float* out, int iterations) {
  __shared__ float tile[kAppTile];
  for (int i = threadIdx.x; i < kAppTile; i += blockDim.x) tile[i] = static_cast<float>(i % 7);
  __syncthreads();
  const uint32_t lane = threadIdx.x % 32;
  float acc = 0;
  float b = static_cast<float>(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    const uint32_t index = (k * 32 + lane) % kAppTile;
    if (kLogged) __barracuda_log_access(4 * index, 7, info_for(Pattern::kSharedLoad), 0);
    acc = fmaf(tile[index], b, acc);
    b = fmaf(b, 0.999f, 1.0f);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    std::fprintf(stderr, "runtime_probe %s: %s: %s\n", RTPROBE_VARIANT, what, cudaGetErrorString(error));
    std::exit(1);
  }
}

// The producer block and host arena of queue.h, rings that never look full. Twice as many queues as
// SMs: %smid need not be below the SM count, and the variant direct_queue indexes by it unchecked.
class Queues {
 public:
  explicit Queues(int sms) : queue_count_(2 * static_cast<uint32_t>(sms)) {
    const uint64_t arena_size = arena_bytes(queue_count_, kRingSlots);
    check(cudaHostAlloc(&arena_, arena_size, cudaHostAllocMapped), "host arena");
    std::memset(arena_, 0, arena_size);
    void* arena_on_device = nullptr;
    check(cudaHostGetDevicePointer(&arena_on_device, arena_, 0), "mapped arena");

    image_.assign(producer_block_bytes(queue_count_), 0);
    QueueProducerHeader header{};
    header.magic = kQueueArenaMagic;
    header.version = kQueueFormatVersion;
    header.queue_count = queue_count_;
    header.queues_per_sm = 1;
    header.capacity = kRingSlots;
    header.launch_id = 1;
    header.host_arena = reinterpret_cast<uint64_t>(arena_on_device);
    std::memcpy(image_.data(), &header, sizeof header);
    for (uint32_t queue = 0; queue < queue_count_; ++queue) {
      QueueProducerLine line{};
      line.read_head_cache = kNeverFull;
      std::memcpy(image_.data() + producer_line_offset(queue), &line, sizeof line);
    }
    check(cudaMalloc(&producers_, image_.size()), "producer block");
    reset();
  }
  ~Queues() {
    cudaFree(producers_);
    cudaFreeHost(arena_);
  }
  Queues(const Queues&) = delete;
  Queues& operator=(const Queues&) = delete;

  // Write heads back to 0; also publishes the block to __barracuda_queues (nullptr: logging off).
  void reset() { check(cudaMemcpy(producers_, image_.data(), image_.size(), cudaMemcpyHostToDevice), "reset"); }
  void attach(bool logging) {
    set_queues<<<1, 1>>>(logging ? static_cast<QueueProducerHeader*>(producers_) : nullptr);
    check(cudaDeviceSynchronize(), "__barracuda_queues");
  }

 private:
  uint32_t queue_count_;
  void* arena_ = nullptr;
  void* producers_ = nullptr;
  std::vector<uint8_t> image_;
};

template <typename Launch>
float time_ms(Queues& queues, Launch launch) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  float ms = 0;
  for (int run = 0; run < 2; ++run) {  // the first run warms up
    queues.reset();
    check(cudaEventRecord(start), "record");
    launch();
    check(cudaGetLastError(), "launch");
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "kernel");
    check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
  }
  check(cudaEventDestroy(start), "event");
  check(cudaEventDestroy(stop), "event");
  return ms;
}

template <Pattern P>
void launch_log_loop(dim3 grid, const float* data, int calls) {
  log_loop<P><<<grid, kThreads>>>(data, calls);
}
using LogLauncher = void (*)(dim3, const float*, int);
const LogLauncher kLogLaunchers[] = {launch_log_loop<Pattern::kGlobalLoad>, launch_log_loop<Pattern::kGlobalStore>,
                                     launch_log_loop<Pattern::kSharedLoad>, launch_log_loop<Pattern::kGenericLoad>};

int resident_warps_per_sm(const void* kernel) {
  int blocks = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, 0), "occupancy");
  return blocks * kThreads / 32;
}

}  // namespace

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 128;
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::printf("runtime_probe: no GPU\n");
    return 77;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  const dim3 grid(prop.multiProcessorCount * kBlocksPerSm);
  const uint64_t threads = uint64_t{grid.x} * kThreads;
  const uint64_t records = threads / 32 * calls;

  Queues queues(prop.multiProcessorCount);
  float* data = nullptr;
  check(cudaMalloc(&data, (threads + uint64_t{32} * calls) * sizeof(float)), "data");

  cudaFuncAttributes attributes{};
  check(cudaFuncGetAttributes(&attributes, log_loop<Pattern::kGlobalLoad>), "attributes");
  std::printf("%-22s regs %3d local %4zu B warps/SM %2d |", RTPROBE_VARIANT, attributes.numRegs,
              attributes.localSizeBytes, resident_warps_per_sm(reinterpret_cast<const void*>(log_loop<Pattern::kGlobalLoad>)));

  queues.attach(true);
  for (Pattern pattern : kPatterns) {
    const int index = static_cast<int>(pattern);
    const float ms = time_ms(queues, [&] { kLogLaunchers[index](grid, data, calls); });
    std::printf(" %s %6.1f", kPatternNames[index], records / (ms * 1e3));
  }
  std::printf(" M rec/s |");

  // The call with logging off (__barracuda_queues == nullptr) costs the ABI alone: call, one load, return.
  queues.attach(false);
  const float call_only_ms = time_ms(queues, [&] { kLogLaunchers[0](grid, data, calls); });
  std::printf(" call_only %6.1f M warp-calls/s |", records / (call_only_ms * 1e3));

  const int iterations = calls * 4;
  const float native_ms = time_ms(queues, [&] { app_loop<false><<<grid, kThreads>>>(data, iterations); });
  const float app_call_only_ms = time_ms(queues, [&] { app_loop<true><<<grid, kThreads>>>(data, iterations); });
  queues.attach(true);
  const float logged_ms = time_ms(queues, [&] { app_loop<true><<<grid, kThreads>>>(data, iterations); });
  check(cudaFuncGetAttributes(&attributes, app_loop<true>), "attributes");
  std::printf(" app native %7.3f ms call_only %7.3f ms logged %8.3f ms (x%.0f, regs %d, warps/SM %d)\n", native_ms,
              app_call_only_ms, logged_ms, logged_ms / native_ms, attributes.numRegs,
              resident_warps_per_sm(reinterpret_cast<const void*>(app_loop<true>)));
  check(cudaFree(data), "data");
  return 0;
}

// GPU test of the device runtime (label gpu; exits 77 where no GPU is present): links the probe
// kernels' PTX with the embedded runtime PTX through nvJitLink (as the shim will), loads the cubin,
// points __barracuda_queues at a device arena, launches, drains the queues concurrently with the
// host protocol code (runtime/queue_drain.h) and checks every record against what the probe logged.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "device/runtime_link.h"
#include "runtime/queue_arena.h"
#include "runtime/queue_drain.h"
#include "runtime_probe_ptx.h"
#include "runtime_probe_sites.h"

namespace barracuda {
namespace {

using probe::ProbeSite;
using runtime::QueueSlot;
using runtime::RecordCursor;
using runtime::RecordView;

constexpr int kSkipped = 77;

void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

void check(bool condition, const std::string& what) {
  if (!condition) throw std::runtime_error("check failed: " + what);
}

struct DecodedRecord {
  RecordHeader header;
  runtime::LaneAddresses addresses;
};
// Records of each warp in the order it logged them, keyed by (block, warp).
using WarpRecords = std::map<std::pair<uint32_t, uint32_t>, std::vector<DecodedRecord>>;

class DeviceArena {
 public:
  DeviceArena(cudaLibrary_t library, const runtime::QueueArenaShape& shape) : shape_(shape) {
    auto image = runtime::make_arena_image(shape);
    bytes_ = image.size();
    check_cuda(cudaMalloc(&device_, bytes_), "cudaMalloc arena");
    check_cuda(cudaMemcpy(device_, image.data(), bytes_, cudaMemcpyHostToDevice), "upload arena");
    void* symbol = nullptr;
    size_t symbol_bytes = 0;
    check_cuda(cudaLibraryGetGlobal(&symbol, &symbol_bytes, library, BARRACUDA_QUEUES_SYMBOL), "find queue symbol");
    check(symbol_bytes == sizeof(void*), "__barracuda_queues is a pointer");
    check_cuda(cudaMemcpy(symbol, &device_, sizeof(device_), cudaMemcpyHostToDevice), "set queue symbol");
    check_cuda(cudaMallocHost(&host_, bytes_), "cudaMallocHost");
    check_cuda(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking), "copy stream");
    read_heads_.assign(shape.queue_count, 0);
  }
  ~DeviceArena() {
    cudaStreamDestroy(copy_stream_);
    cudaFreeHost(host_);
    cudaFree(device_);
  }

  // Drains every queue while a launch of `threads` threads runs, until all of them have exited and
  // every record they committed is read. Returns the records per warp.
  WarpRecords drain_launch(uint64_t threads) {
    WarpRecords records;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      check(std::chrono::steady_clock::now() < deadline, "launch completes within 60 s");
      // Order matters (barracuda/queue.h): threads_exited first, then the commit indices.
      copy_to_host(0, sizeof(QueueArenaHeader));
      uint64_t exited = header().threads_exited;
      copy_to_host(arena_control_offset(0), shape_.queue_count * sizeof(QueueControl));
      bool all_drained = true;
      for (uint32_t queue = 0; queue < shape_.queue_count; ++queue) all_drained &= drain_queue(queue, records);
      if (exited == threads && all_drained) return records;
    }
  }

 private:
  QueueArenaHeader header() const {
    QueueArenaHeader header;
    std::memcpy(&header, host_, sizeof(header));
    return header;
  }
  void copy_to_host(uint64_t offset, uint64_t bytes) {
    check_cuda(cudaMemcpyAsync(static_cast<char*>(host_) + offset, static_cast<char*>(device_) + offset, bytes,
                               cudaMemcpyDeviceToHost, copy_stream_),
               "copy from arena");
    check_cuda(cudaStreamSynchronize(copy_stream_), "copy from arena");
  }
  // Returns whether the queue was already empty at its snapshot.
  bool drain_queue(uint32_t queue, WarpRecords& records) {
    QueueControl control;
    std::memcpy(&control, static_cast<char*>(host_) + arena_control_offset(queue), sizeof(control));
    if (control.commit_index == read_heads_[queue]) return true;
    uint64_t ring_offset = arena_ring_offset(shape_.queue_count, shape_.capacity, queue);
    copy_to_host(ring_offset, shape_.capacity * kSlotBytes);
    std::span ring(reinterpret_cast<const QueueSlot*>(static_cast<char*>(host_) + ring_offset), shape_.capacity);
    std::vector<QueueSlot> out;
    auto result = runtime::drain_queue(ring, {read_heads_[queue], control.commit_index}, out);
    check(!result.error, "queue " + std::to_string(queue) + ": " + result.error.value_or(""));
    read_heads_[queue] = result.read_head;
    uint64_t read_head_address = reinterpret_cast<uint64_t>(device_) + arena_control_offset(queue) +
                                 offsetof(QueueControl, read_head);
    check_cuda(cudaMemcpyAsync(reinterpret_cast<void*>(read_head_address), &read_heads_[queue], sizeof(uint64_t),
                               cudaMemcpyHostToDevice, copy_stream_),
               "store read head");
    check_cuda(cudaStreamSynchronize(copy_stream_), "store read head");
    RecordCursor cursor(out);
    while (auto record = cursor.next()) {
      const RecordHeader& header = record->header();
      records[{header.block_id, header.warp_id}].push_back({header, record->lane_addresses()});
    }
    return false;
  }

  runtime::QueueArenaShape shape_;
  uint64_t bytes_ = 0;
  void* device_ = nullptr;
  void* host_ = nullptr;
  cudaStream_t copy_stream_ = nullptr;
  std::vector<uint64_t> read_heads_;
};

const DecodedRecord& find_site(const std::vector<DecodedRecord>& warp, ProbeSite site) {
  for (const auto& record : warp) {
    if (record.header.site_id == static_cast<uint32_t>(site)) return record;
  }
  throw std::runtime_error("no record for probe site " + std::to_string(static_cast<uint32_t>(site)));
}

void check_access(const DecodedRecord& record, RecordOp op, MemorySpace space, AddressMode mode, uint32_t mask,
                  const char* what) {
  std::string name = what;
  check(record.header.op == static_cast<uint8_t>(op), name + ": op");
  check(record_space(record.header) == space, name + ": memory space");
  check(record_address_mode(record.header) == mode, name + ": address mode");
  check(record.header.active_mask == mask, name + ": active mask");
}

void check_patterns(const WarpRecords& records, uint64_t data) {
  check(records.size() == probe::kPatternThreads / 32, "one record stream per warp");
  for (const auto& [key, warp] : records) {
    const uint32_t warp_index = key.second;
    check(warp.front().header.op == static_cast<uint8_t>(RecordOp::kWarpEntry), "first record is warp entry");
    check(warp.back().header.op == static_cast<uint8_t>(RecordOp::kWarpExit), "last record is warp exit");
    const uint64_t first_thread = 32 * warp_index;

    const auto& coalesced = find_site(warp, ProbeSite::kCoalesced);
    check_access(coalesced, RecordOp::kLoad, MemorySpace::kGlobal, AddressMode::kAffine, ~0u, "coalesced");
    check(coalesced.header.stride == 8 && coalesced.header.base == data + 8 * first_thread, "coalesced base/stride");
    check(record_access_bytes(coalesced.header) == 8 && coalesced.header.flags == 0, "coalesced size/flags");

    const auto& scattered = find_site(warp, ProbeSite::kScattered);
    check_access(scattered, RecordOp::kLoad, MemorySpace::kGlobal, AddressMode::kDelta32, ~0u, "scattered");
    const auto& far = find_site(warp, ProbeSite::kFar);
    check_access(far, RecordOp::kLoad, MemorySpace::kGlobal, AddressMode::kFull64, ~0u, "far");
    for (uint64_t lane = 0; lane < 32; ++lane) {
      check(scattered.addresses[lane] == data + 4 * lane * lane, "scattered lane address");
      check(far.addresses[lane] == data + (lane << 33) + lane * lane, "far lane address");
    }

    const auto& same = find_site(warp, ProbeSite::kDivergentSameValue);
    check_access(same, RecordOp::kStore, MemorySpace::kGlobal, AddressMode::kAffine, 0x11111111u, "divergent store");
    check(same.header.stride == 0 && same.addresses[4] == data, "divergent store address");
    check(same.header.flags == (kFlagIntraWarpConflict | kFlagSameValue), "divergent store flags");
    const auto& different = find_site(warp, ProbeSite::kConflictDifferentValues);
    check(different.header.flags == kFlagIntraWarpConflict, "different-value store flags");

    const auto& shared = find_site(warp, ProbeSite::kGenericShared);
    check_access(shared, RecordOp::kStore, MemorySpace::kShared, AddressMode::kAffine, ~0u, "generic shared");
    check(shared.header.stride == 4 && shared.header.base < 48 * 1024, "shared window offset");
    const auto& global = find_site(warp, ProbeSite::kGenericGlobal);
    check_access(global, RecordOp::kAtomic, MemorySpace::kGlobal, AddressMode::kAffine, ~0u, "generic global");
    check(global.header.base == data + 8 * first_thread, "generic global address unchanged");

    check(find_site(warp, ProbeSite::kBarrier).header.op == static_cast<uint8_t>(RecordOp::kBarrier), "barrier");
    const auto& fence = find_site(warp, ProbeSite::kFence).header;
    check(fence.op == static_cast<uint8_t>(RecordOp::kFence) && record_scope(fence) == MemoryScope::kGpu &&
              record_semantics(fence) == MemorySemantics::kAcqRel,
          "fence");
    const auto& branch = find_site(warp, ProbeSite::kBranch).header;
    check(branch.op == static_cast<uint8_t>(RecordOp::kBranchIf) && branch.active_mask == (1u << probe::kBranchTakenLanes) - 1 &&
              branch.base == ~0u,
          "branch masks");
    check(find_site(warp, ProbeSite::kReconverge).header.active_mask == ~0u, "reconvergence mask");
  }
}

void check_flood(const WarpRecords& records, uint32_t blocks, uint32_t warps_per_block, uint32_t per_warp) {
  check(records.size() == blocks * warps_per_block, "every flood warp logged");
  for (const auto& [key, warp] : records) {
    check(warp.size() == per_warp + 2, "flood warp record count");
    for (uint32_t sequence = 0; sequence < per_warp; ++sequence) {
      const DecodedRecord& record = warp[1 + sequence];
      check(record.addresses[0] == probe::flood_tag(key.first, key.second, sequence), "flood record in order, intact");
      check(record_address_mode(record.header) == static_cast<AddressMode>(sequence % 3), "flood encoding rotates");
    }
  }
}

int run() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("no CUDA device: skipped");
    return kSkipped;
  }
  cudaDeviceProp properties;
  check_cuda(cudaGetDeviceProperties(&properties, 0), "device properties");
  LinkedCubin linked =
      link_with_device_runtime({{"runtime_probe", runtime_probe_ptx()}},
                               "sm_" + std::to_string(properties.major * 10 + properties.minor));
  check(!linked.cubin.empty(), linked.error_log);
  const std::vector<char>& cubin = linked.cubin;
  cudaLibrary_t library;
  check_cuda(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "load cubin");
  cudaStream_t stream;
  check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "kernel stream");
  uint64_t* data = nullptr;
  check_cuda(cudaMalloc(&data, probe::kPatternThreads * sizeof(uint64_t)), "cudaMalloc data");

  cudaKernel_t patterns, flood;
  check_cuda(cudaLibraryGetKernel(&patterns, library, "probe_patterns"), "find probe_patterns");
  check_cuda(cudaLibraryGetKernel(&flood, library, "probe_flood"), "find probe_flood");
  {
    DeviceArena arena(library, {4, 1, 1024});
    void* args[] = {&data};
    check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(patterns), dim3(1), dim3(probe::kPatternThreads), args, 0,
                                stream),
               "launch probe_patterns");
    check_patterns(arena.drain_launch(probe::kPatternThreads), reinterpret_cast<uint64_t>(data));
    check_cuda(cudaStreamSynchronize(stream), "probe_patterns");
    std::puts("probe_patterns: every record as expected");
  }
  {
    // 64-slot rings shared by hundreds of warps: constant wrap-around and back-pressure.
    constexpr uint32_t kBlocks = 264, kThreads = 256, kPerWarp = 200;
    DeviceArena arena(library, {8, 1, 64});
    uint32_t per_warp = kPerWarp;
    void* args[] = {&per_warp};
    auto start = std::chrono::steady_clock::now();
    check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(flood), dim3(kBlocks), dim3(kThreads), args, 0, stream),
               "launch probe_flood");
    check_flood(arena.drain_launch(uint64_t{kBlocks} * kThreads), kBlocks, kThreads / 32, kPerWarp);
    check_cuda(cudaStreamSynchronize(stream), "probe_flood");
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("probe_flood: %u warps x %u records through 8 x 64-slot queues, all in order (%.3f s)\n",
                kBlocks * kThreads / 32, kPerWarp, seconds);
  }
  cudaFree(data);
  cudaStreamDestroy(stream);
  cudaLibraryUnload(library);
  return 0;
}

}  // namespace
}  // namespace barracuda

int main() {
  try {
    return barracuda::run();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "device_runtime_gpu_test: %s\n", error.what());
    return 1;
  }
}

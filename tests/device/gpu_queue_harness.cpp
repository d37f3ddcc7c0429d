#include "gpu_queue_harness.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "barracuda/queue.h"
#include "runtime/queue_drain.h"

namespace barracuda::testing {

void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

void check(bool condition, const std::string& what) {
  if (!condition) throw std::runtime_error("check failed: " + what);
}

DeviceArena::DeviceArena(cudaLibrary_t library, const runtime::QueueArenaShape& shape) : shape_(shape) {
  auto image = runtime::make_arena_image(shape);
  bytes_ = image.size();
  check_cuda(cudaMalloc(&device_, bytes_), "cudaMalloc arena");
  check_cuda(cudaMemcpy(device_, image.data(), bytes_, cudaMemcpyHostToDevice), "upload arena");
  auto block = runtime::make_producer_block(shape, reinterpret_cast<uint64_t>(device_));
  // Launch slot 0, the probes' slot: every record, branches included (as under the lockstep model).
  // The whole block: the sync ticket counters follow the part make_producer_block fills, zeroed.
  check_cuda(cudaMalloc(&producers_, producer_block_bytes(shape.queue_count)), "cudaMalloc producer block");
  check_cuda(cudaMemset(producers_, 0, producer_block_bytes(shape.queue_count)), "zero producer block");
  LaunchSlot slot0{};
  std::memcpy(&slot0, block.data() + launch_slot_offset(shape.queue_count, 0), sizeof slot0);
  slot0.flags |= kLaunchLogsEveryRecord;
  slot0.sync_buckets = reinterpret_cast<uint64_t>(producers_) + sync_buckets_offset(shape.queue_count, 0);
  std::memcpy(block.data() + launch_slot_offset(shape.queue_count, 0), &slot0, sizeof slot0);
  check_cuda(cudaMemcpy(producers_, block.data(), block.size(), cudaMemcpyHostToDevice), "upload producer block");
  void* symbol = nullptr;
  size_t symbol_bytes = 0;
  check_cuda(cudaLibraryGetGlobal(&symbol, &symbol_bytes, library, BARRACUDA_QUEUES_SYMBOL), "find queue symbol");
  check(symbol_bytes == sizeof(void*), "__barracuda_queues is a pointer");
  check_cuda(cudaMemcpy(symbol, &producers_, sizeof(producers_), cudaMemcpyHostToDevice), "set queue symbol");
  check_cuda(cudaMallocHost(&host_, bytes_), "cudaMallocHost");
  check_cuda(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking), "copy stream");
  read_heads_.assign(shape.queue_count, 0);
}

DeviceArena::~DeviceArena() {
  cudaStreamDestroy(copy_stream_);
  cudaFreeHost(host_);
  cudaFree(producers_);
  cudaFree(device_);
}

WarpRecords DeviceArena::drain_launch(cudaStream_t stream) {
  WarpRecords records;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    check(std::chrono::steady_clock::now() < deadline, "launch completes within 60 s");
    // Order matters: the kernel's end first, then the rings.
    const cudaError_t ended = cudaStreamQuery(stream);
    check(ended == cudaSuccess || ended == cudaErrorNotReady, std::string("the probe kernel ran: ") + cudaGetErrorString(ended));
    bool all_drained = true;
    for (uint32_t queue = 0; queue < shape_.queue_count; ++queue) all_drained &= drain_queue(queue, records);
    if (ended == cudaSuccess && all_drained) return records;
  }
}

void DeviceArena::copy_to_host(uint64_t offset, uint64_t bytes) {
  check_cuda(cudaMemcpyAsync(static_cast<char*>(host_) + offset, static_cast<char*>(device_) + offset, bytes,
                             cudaMemcpyDeviceToHost, copy_stream_),
             "copy from arena");
  check_cuda(cudaStreamSynchronize(copy_stream_), "copy from arena");
}

void DeviceArena::zero_device_slots(uint64_t ring_offset, uint64_t from, uint64_t to) {
  char* ring = static_cast<char*>(device_) + ring_offset;
  while (from != to) {
    const uint64_t slot = from & (shape_.capacity - 1);
    const uint64_t count = std::min(to - from, shape_.capacity - slot);  // up to the end of the ring
    check_cuda(cudaMemsetAsync(ring + slot * kSlotBytes, 0, count * kSlotBytes, copy_stream_), "zero taken slots");
    from += count;
  }
}

// Returns whether the queue had nothing published.
bool DeviceArena::drain_queue(uint32_t queue, WarpRecords& records) {
  const uint64_t ring_offset = arena_ring_offset(shape_.queue_count, shape_.capacity, queue);
  std::span ring(reinterpret_cast<runtime::QueueSlot*>(static_cast<char*>(host_) + ring_offset), shape_.capacity);
  const uint64_t from = read_heads_[queue];
  // A copy may read a record's payload before the GPU writes it and its word 0 after, so one copy
  // only says which records are published; the GPU wrote all their bytes before that copy read their
  // word 0, so a second copy holds them whole. (The live host drain reads in place: no copies.)
  copy_to_host(ring_offset, shape_.capacity * kSlotBytes);
  std::vector<runtime::QueueSlot> out;
  auto published = runtime::drain_queue(ring, from, out);
  check(!published.error, "queue " + std::to_string(queue) + ": " + published.error.value_or(""));
  if (published.records == 0) return true;
  copy_to_host(ring_offset, shape_.capacity * kSlotBytes);
  if (published.read_head - from < shape_.capacity) ring[published.read_head & (shape_.capacity - 1)] = {};
  out.clear();
  auto result = runtime::drain_queue(ring, from, out);
  check(!result.error && result.read_head == published.read_head,
        "queue " + std::to_string(queue) + ": second copy: " + result.error.value_or("other framing"));
  zero_device_slots(ring_offset, from, result.read_head);
  read_heads_[queue] = result.read_head;
  char* read_head = static_cast<char*>(device_) + arena_control_offset(queue) + offsetof(QueueControl, read_head);
  check_cuda(cudaMemcpyAsync(read_head, &read_heads_[queue], sizeof(uint64_t), cudaMemcpyHostToDevice, copy_stream_),
             "store read head");
  check_cuda(cudaStreamSynchronize(copy_stream_), "store read head");
  runtime::RecordCursor cursor(out);
  std::optional<uint64_t> ticket;
  uint32_t bucket = 0;
  std::vector<uint64_t> lane_tickets;
  bool ticket_pending = false;
  while (auto record = cursor.next()) {
    const RecordHeader& header = record->header();
    if (header.op == static_cast<uint8_t>(RecordOp::kSyncTicket)) {
      check(!ticket_pending, "two sync tickets in a row");
      ticket_pending = true;
      if (record->address_mode() == AddressMode::kFull64) {
        for (uint32_t lane = 0; lane < kWarpSize; ++lane) lane_tickets.push_back(record->lane_address(lane));
      } else {
        ticket = header.base;
        bucket = static_cast<uint32_t>(header.stride);
      }
      continue;
    }
    records[{header.block_id, header.warp_id}].push_back(
        {header, runtime::lane_addresses(*record), ticket, bucket, std::move(lane_tickets)});
    ticket.reset();
    bucket = 0;
    lane_tickets.clear();
    ticket_pending = false;
  }
  check(!ticket_pending, "sync ticket at the end of a drained batch");
  return false;
}

int run_gpu_test(const char* name, const std::vector<runtime::LinkInput>& modules, RuntimeLinking linking,
                 const std::function<void(cudaLibrary_t)>& body) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("%s: no CUDA device, skipped\n", name);
    return kSkippedExitCode;
  }
  try {
    cudaDeviceProp properties;
    check_cuda(cudaGetDeviceProperties(&properties, 0), "device properties");
    std::string arch = "sm_" + std::to_string(properties.major * 10 + properties.minor);
    std::vector<runtime::LinkInput> inputs = modules;
    if (linking == RuntimeLinking::kSeparateModule) inputs.push_back(runtime::device_runtime_input(arch));
    runtime::LinkedCubin linked = runtime::link_to_cubin({inputs, arch, {}});
    cudaLibrary_t library;
    check_cuda(cudaLibraryLoadData(&library, linked.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
               "load the linked cubin");
    body(library);
    cudaLibraryUnload(library);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: %s\n", name, error.what());
    return 1;
  }
}

const DecodedRecord& find_site(const std::vector<DecodedRecord>& warp, uint32_t site) {
  for (const auto& record : warp) {
    if (record.header.site_id == site) return record;
  }
  throw std::runtime_error("no record for site " + std::to_string(site));
}

}  // namespace barracuda::testing

#include "runtime/queue_host.h"

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "runtime/driver_api.h"
#include "runtime/queue_drain.h"

namespace barracuda::runtime {
namespace {

void check(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + describe(result));
}

}  // namespace

QueueHost::QueueHost(const QueueArenaShape& shape) : shape_(shape) {
  if (auto why = validate_arena_shape(shape)) throw std::runtime_error("queue arena: " + *why);
  const DriverApi& api = driver_api();
  if (!api.missing.empty()) throw std::runtime_error("libcuda lacks " + api.missing);
  std::vector<std::byte> image = make_arena_image(shape);
  void* host = nullptr;
  check(api.mem_host_alloc(&host, image.size(), CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE),
        "cuMemHostAlloc of the event queues");
  host_ = static_cast<std::byte*>(host);
  std::memcpy(host_, image.data(), image.size());
  check(api.mem_host_get_device_pointer(&device_address_, host, 0), "cuMemHostGetDevicePointer");
}

QueueArenaHeader& QueueHost::header() const { return *reinterpret_cast<QueueArenaHeader*>(host_); }

QueueControl& QueueHost::control(uint32_t queue) const {
  return *reinterpret_cast<QueueControl*>(host_ + arena_control_offset(queue));
}

void QueueHost::begin_launch(uint16_t launch_id) {
  // The GPU reads these over the bus when the kernel starts, after the launch call that follows.
  std::atomic_ref<uint32_t>(header().launch_id).store(launch_id, std::memory_order_release);
  std::atomic_ref<uint64_t>(header().threads_exited).store(0, std::memory_order_release);
  std::atomic_ref<uint64_t>(header().next_sync_ticket).store(0, std::memory_order_release);
}

uint64_t QueueHost::threads_exited() const {
  return std::atomic_ref<uint64_t>(header().threads_exited).load(std::memory_order_acquire);
}

uint64_t QueueHost::drain(const Consumer& consume) {
  uint64_t records = 0;
  for (uint32_t q = 0; q < shape_.queue_count; ++q) {
    QueueControl& ctl = control(q);
    QueueSnapshot snapshot{std::atomic_ref<uint64_t>(ctl.read_head).load(std::memory_order_relaxed),
                           std::atomic_ref<uint64_t>(ctl.commit_index).load(std::memory_order_acquire)};
    if (snapshot.commit_index == snapshot.read_head) continue;
    auto* ring = reinterpret_cast<const QueueSlot*>(host_ + arena_ring_offset(shape_.queue_count, shape_.capacity, q));
    scratch_.clear();
    DrainResult result = drain_queue({ring, shape_.capacity}, snapshot, scratch_);
    if (result.error) throw std::runtime_error("event queue " + std::to_string(q) + ": " + *result.error);
    // Slots are copied out before the GPU may reuse them: only now hand them back.
    std::atomic_ref<uint64_t>(ctl.read_head).store(result.read_head, std::memory_order_release);
    consume(q, {reinterpret_cast<const RecordHeader*>(scratch_.data()), scratch_.size()});
    records += result.records;
  }
  return records;
}

}  // namespace barracuda::runtime

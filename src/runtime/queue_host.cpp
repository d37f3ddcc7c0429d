#include "runtime/queue_host.h"

#include <atomic>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "barracuda/shared_check_pool.h"
#include "device/launch_slot_release_ptx.h"
#include "runtime/driver_api.h"

namespace barracuda::runtime {
namespace {

void check(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + describe(result));
}

uint64_t next_queue_id() {
  static std::atomic<uint64_t> last{0};
  return ++last;
}

}  // namespace

std::byte* QueueHost::allocate_host_arena(const QueueArenaShape& shape) {
  if (auto why = validate_arena_shape(shape)) throw std::runtime_error("queue arena: " + *why);
  const DriverApi& api = driver_api();
  if (!api.missing.empty()) throw std::runtime_error("libcuda lacks " + api.missing);
  const size_t bytes = arena_bytes(shape.queue_count, shape.capacity);
  void* host = nullptr;
  check(api.mem_host_alloc(&host, bytes, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE),
        "cuMemHostAlloc of the event queues");
  // In place: a staging copy would double the run's peak memory (1 GiB of queues on the H100).
  write_arena_image({static_cast<std::byte*>(host), bytes}, shape);
  return static_cast<std::byte*>(host);
}

QueueHost::QueueHost(const QueueArenaShape& shape) : arena_(allocate_host_arena(shape), shape), id_(next_queue_id()) {
  const DriverApi& api = driver_api();
  try {
    check(api.ctx_get_current(&context_), "cuCtxGetCurrent");
    check(api.ctx_get_device(&device_), "cuCtxGetDevice");
    check(api.mem_host_get_device_pointer(&host_arena_, arena_.memory(), 0), "cuMemHostGetDevicePointer");
    check(api.stream_create(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate for the event queues");
    global_shadow_ = GlobalShadow(stream_);
    std::vector<std::byte> producers = make_producer_block(shape, host_arena_);
    producers_ = std::make_unique<ToolDeviceMemory>(producer_block_bytes(shape.queue_count));
    copy_to_device(producers_->address(), producers.data(), producers.size(), "upload of the queue producer block");
    load_release_kernel();
  } catch (...) {
    producers_.reset();
    if (stream_ != nullptr) api.stream_destroy(stream_);
    api.mem_free_host(arena_.memory());
    throw;
  }
}

QueueHost::~QueueHost() {
  if (forgotten_) {  // the driver released all of it with the context
    producers_->forget();
    if (shared_pool_) shared_pool_->forget();
    global_shadow_.forget();
    return;
  }
  const DriverApi& api = driver_api();
  // Freed from whichever thread let go of them last: in their own context.
  const ScopedContext in_own_context(context_);
  if (release_module_ != nullptr) api.module_unload(release_module_);
  shared_pool_.reset();
  global_shadow_ = GlobalShadow(nullptr);
  producers_.reset();
  api.stream_destroy(stream_);
  api.mem_free_host(arena_.memory());
}

void QueueHost::load_release_kernel() {
  const DriverApi& api = driver_api();
  const std::string ptx(launch_slot_release_ptx());
  if (api.module_load_data(&release_module_, ptx.c_str()) != CUDA_SUCCESS) {
    release_module_ = nullptr;
    return;  // releases fall back to a plain memset, and launches of one kernel do not overlap
  }
  int threads = 0;
  // Loaded now, not at its first launch: lazy loading then would wait for the kernels running.
  if (api.module_get_function(&release_kernel_, release_module_, BARRACUDA_RELEASE_LAUNCH_SLOT_KERNEL) !=
          CUDA_SUCCESS ||
      api.func_get_attribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, release_kernel_) != CUDA_SUCCESS) {
    release_kernel_ = nullptr;
    api.module_unload(release_module_);
    release_module_ = nullptr;
  }
}

CUresult QueueHost::release_launch_slot(CUdeviceptr slot_global, uint32_t slot, CUcontext context, CUstream stream) {
  const DriverApi& api = driver_api();
  if (release_kernel_ == nullptr || context != context_) return api.memset_d32_async(slot_global, kNoLaunchSlot, 1, stream);
  void* arguments[] = {&slot_global, &slot};
  return api.launch_kernel(release_kernel_, 1, 1, 1, 1, 1, 1, 0, stream, arguments, nullptr);
}

bool QueueHost::alive() const {
  CUmemorytype type{};
  return driver_api().pointer_get_attribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                            reinterpret_cast<CUdeviceptr>(arena_.memory())) == CUDA_SUCCESS;
}

// SM ids run from 0 to the SM count on the GPUs measured; the spare rows cover gaps. A block on an SM
// id past the rows is checked on the host.
constexpr uint32_t kSharedPoolSpareRows = 16;

ToolDeviceMemory* QueueHost::shared_pool() {
  if (shared_pool_ || !shared_pool_error_.empty()) return shared_pool_.get();
  const uint32_t rows = arena_.shape().queue_count + kSharedPoolSpareRows;
  const size_t bytes = shared_pool_bytes(rows, kSharedPoolRowBytes);
  try {
    auto pool = std::make_unique<ToolDeviceMemory>(bytes);
    zero_on_device(pool->address(), bytes, "zeroing the shared-memory shadow pool");
    shared_pool_ = std::move(pool);
    shared_pool_rows_ = rows;
  } catch (const std::exception& e) {
    shared_pool_error_ = e.what();
  }
  return shared_pool_.get();
}

QueueHost::LaunchSetup QueueHost::prepare_launch(uint32_t slot, uint16_t launch_id, CUstream stream,
                                                bool check_shared_on_device, const ReadOnlyRanges& read_only_ranges,
                                                const GlobalShadow::Request* global, bool count_barriers,
                                                bool log_every_record,
                                                uint32_t grid_blocks, bool launches_child_grids) {
  LaunchSlot fields{};
  fields.launch_id = launch_id;
  fields.next_block = grid_blocks;
  if (launches_child_grids) fields.flags |= kLaunchHasChildGrids;
  if (log_every_record) fields.flags |= kLaunchLogsEveryRecord;
  for (uint32_t p = 0; p < kReadOnlyParameterRanges; ++p) {
    fields.read_only_begin[p] = read_only_ranges[p].first;
    fields.read_only_end[p] = read_only_ranges[p].second;
    if (read_only_ranges[p].first < read_only_ranges[p].second) fields.flags |= kLaunchSkipsReadOnlyParameterLoads;
  }
  if (ToolDeviceMemory* pool = check_shared_on_device ? shared_pool() : nullptr) {
    const DriverApi& api = driver_api();
    check(api.memset_d8_async(pool->address(), 0, shared_pool_rows_offset(), stream),
          "clearing the shared-memory race filter");
    fields.shared_pool_rows = shared_pool_rows_;
    fields.shared_pool = pool->address();
    fields.shared_pool_row_bytes = kSharedPoolRowBytes;
  }
  LaunchSetup setup;
  if (global != nullptr) {
    // The shadow is optional: where it cannot be had (no memory), the host checks global memory.
    try {
      fields.global_check = global_shadow_.prepare(slot, *global, stream);
      setup.global_declined = global_shadow_.declined();
    } catch (const std::exception& e) {
      fields.global_check = 0;
      setup.global_declined = e.what();
    }
  }
  // A replayable trace keeps every barrier record.
  if (fields.global_check != 0 && count_barriers && !log_every_record) fields.flags |= kLaunchCountsBarriers;
  // Every location bucket's tickets start again at 0 (the copy below waits for the clearing too).
  fields.sync_buckets = producers_->address() + sync_buckets_offset(arena_.shape().queue_count, slot);
  {
    RelaxedCaptureMode relaxed;
    check(driver_api().memset_d8_async(fields.sync_buckets, 0, kSyncBuckets * sizeof(uint64_t), stream_),
          "clearing the launch's sync tickets");
  }
  copy_to_device(producers_->address() + launch_slot_offset(arena_.shape().queue_count, slot), &fields,
                 offsetof(LaunchSlot, padding), "setting up a launch slot");
  setup.device_checks_shared = fields.shared_pool_rows != 0;
  setup.device_checks_global = fields.global_check != 0;
  return setup;
}

void QueueHost::clear_grid_table() {
  zero_on_device(producers_->address() + grid_table_offset(arena_.shape().queue_count),
                 grid_table_bytes(), "clearing the grid table");
}

std::optional<std::string> QueueHost::damage() {
  if (auto damage = arena_.header_damage()) return damage;
  QueueProducerHeader seen{};
  const DriverApi& api = driver_api();
  RelaxedCaptureMode relaxed;
  check(api.memcpy_dtoh_async(&seen, producers_->address(), sizeof(seen), stream_), "reading back the producer header");
  check(api.stream_synchronize(stream_), "reading back the producer header");
  return producer_header_damage(seen, arena_.shape(), host_arena_);
}

void QueueHost::restore() {
  arena_.restore_header();
  const QueueArenaShape& shape = arena_.shape();
  std::vector<uint64_t> positions(shape.queue_count);
  for (uint32_t queue = 0; queue < shape.queue_count; ++queue) positions[queue] = arena_.read_head(queue);
  const std::vector<std::byte> producers = make_producer_block(shape, host_arena_, positions);
  copy_to_device(producers_->address(), producers.data(), producers.size(), "restoring the queue producer block");
}

void QueueHost::point_module_at_queues(CUdeviceptr module_global) {
  const CUdeviceptr producers = producers_->address();
  copy_to_device(module_global, &producers, sizeof(producers), "setting a module's queue pointer");
}

void QueueHost::set_perturbation_seed(CUdeviceptr module_global, uint32_t seed) {
  copy_to_device(module_global, &seed, sizeof(seed), "setting a module's perturbation seed");
}

void QueueHost::zero_on_device(CUdeviceptr destination, size_t bytes, const char* what) {
  const DriverApi& api = driver_api();
  RelaxedCaptureMode relaxed;
  check(api.memset_d8_async(destination, 0, bytes, stream_), what);
  check(api.stream_synchronize(stream_), what);
}

void QueueHost::copy_to_device(CUdeviceptr destination, const void* source, size_t bytes, const char* what) {
  const DriverApi& api = driver_api();
  RelaxedCaptureMode relaxed;
  check(api.memcpy_htod_async(destination, source, bytes, stream_), what);
  check(api.stream_synchronize(stream_), what);
}

}  // namespace barracuda::runtime

#include "runtime/global_shadow.h"

#include <algorithm>
#include <stdexcept>

#include "runtime/driver_api.h"

namespace barracuda::runtime {
namespace {

constexpr uint32_t kMaxTag = (1u << kGlobalTagBits) - 1;

void check(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + describe(result));
}

uint64_t shadow_bytes(uint64_t begin, uint64_t end) { return (end - begin + 3) / 4 * sizeof(GlobalShadowWord); }

bool requested(const GlobalShadow::Request& request, uint64_t begin) {
  return std::any_of(request.allocations.begin(), request.allocations.end(),
                     [begin](const auto& allocation) { return allocation.first == begin; });
}

}  // namespace

std::unique_ptr<ToolDeviceMemory> GlobalShadow::zeroed(uint64_t bytes, const char* what) {
  auto memory = std::make_unique<ToolDeviceMemory>(bytes);
  const DriverApi& api = driver_api();
  check(api.memset_d8_async(memory->address(), 0, bytes, tool_stream_), what);
  check(api.stream_synchronize(tool_stream_), what);
  return memory;
}

void GlobalShadow::retire(std::unique_ptr<ToolDeviceMemory> memory, uint64_t bytes) {
  if (memory) retired_.emplace_back(std::move(memory), bytes);
}

void GlobalShadow::forget() {
  for (auto* memory : {&descriptors_, &race_filter_, &barrier_words_}) {
    if (*memory) (*memory)->forget();
  }
  for (auto& [begin, shadow] : shadows_) shadow.memory->forget();
  for (auto& [memory, bytes] : retired_) memory->forget();
}

void GlobalShadow::release_retired() {
  for (const auto& [memory, bytes] : retired_) bytes_ -= bytes;
  retired_.clear();
}

bool GlobalShadow::fits(uint64_t more_bytes, const Request& request) {
  if (budget_bytes_ == 0) {
    size_t free_bytes = 0, total_bytes = 0;
    check(driver_api().mem_get_info(&free_bytes, &total_bytes), "cuMemGetInfo");
    budget_bytes_ = std::max<uint64_t>(free_bytes / 4, 1);
  }
  if (bytes_ + more_bytes <= budget_bytes_) return true;
  // Retired memory counts until release_retired(): this launch cannot have it, a later one may.
  uint64_t live = bytes_;
  for (const auto& [memory, bytes] : retired_) live -= bytes;
  while (live + more_bytes > budget_bytes_) {
    auto oldest = shadows_.end();
    for (auto it = shadows_.begin(); it != shadows_.end(); ++it) {
      if (!requested(request, it->first) && (oldest == shadows_.end() || it->second.last_use < oldest->second.last_use)) {
        oldest = it;
      }
    }
    if (oldest == shadows_.end()) break;
    live -= oldest->second.bytes;
    retire(std::move(oldest->second.memory), oldest->second.bytes);
    shadows_.erase(oldest);
  }
  return false;
}

bool GlobalShadow::ensure_barrier_words(uint64_t needed, const Request& request) {
  if (needed <= barrier_word_count_) return true;
  const uint64_t words = std::max<uint64_t>(needed, 2 * barrier_word_count_);
  if (!fits(words * sizeof(uint64_t), request)) return false;
  retire(std::move(barrier_words_), barrier_word_count_ * sizeof(uint64_t));
  barrier_words_ = zeroed(words * sizeof(uint64_t), "zeroing the barrier counts of global checking");
  barrier_word_count_ = words;
  bytes_ += words * sizeof(uint64_t);
  return true;
}

GlobalShadow::Shadow* GlobalShadow::shadow_of(uint64_t begin, uint64_t end, const Request& request) {
  auto found = shadows_.find(begin);
  if (found != shadows_.end() && found->second.end == end) return &found->second;
  if (found != shadows_.end()) {  // another allocation at the same address
    retire(std::move(found->second.memory), found->second.bytes);
    shadows_.erase(found);
  }
  const uint64_t bytes = shadow_bytes(begin, end);
  if (!fits(bytes, request)) return nullptr;
  Shadow& shadow = shadows_[begin];
  shadow.end = end;
  shadow.bytes = bytes;
  shadow.memory = zeroed(bytes, "zeroing a global-memory shadow");
  bytes_ += bytes;
  return &shadow;
}

void GlobalShadow::zero_all(CUstream stream) {
  const DriverApi& api = driver_api();
  const char* what = "clearing the global-memory shadows";
  for (const auto& [begin, shadow] : shadows_) check(api.memset_d8_async(shadow.memory->address(), 0, shadow.bytes, stream), what);
  check(api.memset_d8_async(barrier_words_->address(), 0, barrier_word_count_ * sizeof(uint64_t), stream), what);
  check(api.memset_d8_async(race_filter_->address(), 0, kGlobalRaceFilterEntries * sizeof(uint64_t), stream), what);
}

CUdeviceptr GlobalShadow::prepare(uint32_t slot, const Request& request, CUstream stream) {
  declined_.clear();
  if (!global_grid_fits(request.blocks)) {
    declined_ = "its grid has more blocks than global checking on the GPU counts";
    return 0;
  }
  if (request.allocations.empty() || request.allocations.size() > kGlobalCheckRanges) {
    declined_ = request.allocations.empty() ? "no argument points into an allocation barracuda saw"
                                            : "its arguments point into more allocations than a launch checks on the GPU";
    return 0;
  }
  RelaxedCaptureMode relaxed;
  if (!descriptors_) {
    descriptors_ = zeroed(kLaunchSlots * sizeof(GlobalCheckLaunch), "zeroing the global check descriptors");
    race_filter_ = zeroed(kGlobalRaceFilterEntries * sizeof(uint64_t), "zeroing the global race filter");
  }
  ++launches_;
  const uint64_t thread_words = request.blocks * request.threads_per_block;
  if (!ensure_barrier_words(thread_words + kBlockBarrierWords * request.blocks, request)) {
    declined_ = "the barrier counts of its threads exceed the shadow budget";
    return 0;
  }
  GlobalCheckLaunch descriptor{};
  for (const auto& [begin, end] : request.allocations) {
    Shadow* shadow = shadow_of(begin, end, request);
    if (shadow == nullptr) {
      declined_ = "the shadow of the memory its arguments point into exceeds the budget";
      return 0;
    }
    shadow->last_use = launches_;
    descriptor.ranges[descriptor.range_count++] = {begin, end, shadow->memory->address()};
  }
  if (++tag_ > kMaxTag) {  // stale stamps could carry the new tag
    tag_ = 1;
    zero_all(stream);
  }
  descriptor.tag = tag_;
  descriptor.layout = pack_global_stamp_layout(global_stamp_layout(request.blocks, request.grid_syncs));
  descriptor.barriers = barrier_words_->address();
  descriptor.block_barriers = descriptor.barriers + thread_words * sizeof(uint64_t);
  descriptor.race_filter = race_filter_->address();
  const CUdeviceptr address = descriptors_->address() + uint64_t{slot} * sizeof(GlobalCheckLaunch);
  const DriverApi& api = driver_api();
  check(api.memcpy_htod_async(address, &descriptor, sizeof descriptor, tool_stream_), "setting up global checking");
  check(api.stream_synchronize(tool_stream_), "setting up global checking");
  return address;
}

bool GlobalShadow::saturated(uint32_t slot) {
  if (!descriptors_) return false;
  uint32_t saturated = 0;
  const CUdeviceptr address =
      descriptors_->address() + uint64_t{slot} * sizeof(GlobalCheckLaunch) + offsetof(GlobalCheckLaunch, saturated);
  const DriverApi& api = driver_api();
  RelaxedCaptureMode relaxed;
  check(api.memcpy_dtoh_async(&saturated, address, sizeof saturated, tool_stream_), "reading back global checking");
  check(api.stream_synchronize(tool_stream_), "reading back global checking");
  return saturated != 0;
}

}  // namespace barracuda::runtime

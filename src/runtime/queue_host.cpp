#include "runtime/queue_host.h"

#include <cstring>
#include <stdexcept>
#include <vector>

#include "runtime/driver_api.h"

namespace barracuda::runtime {
namespace {

void check(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + describe(result));
}

}  // namespace

std::byte* QueueHost::allocate(const QueueArenaShape& shape) {
  if (auto why = validate_arena_shape(shape)) throw std::runtime_error("queue arena: " + *why);
  const DriverApi& api = driver_api();
  if (!api.missing.empty()) throw std::runtime_error("libcuda lacks " + api.missing);
  std::vector<std::byte> image = make_arena_image(shape);
  void* host = nullptr;
  check(api.mem_host_alloc(&host, image.size(), CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE),
        "cuMemHostAlloc of the event queues");
  std::memcpy(host, image.data(), image.size());
  return static_cast<std::byte*>(host);
}

QueueHost::QueueHost(const QueueArenaShape& shape) : arena_(allocate(shape), shape) {
  const DriverApi& api = driver_api();
  check(api.mem_host_get_device_pointer(&device_address_, arena_.memory(), 0), "cuMemHostGetDevicePointer");
  check(api.ctx_get_current(&context_), "cuCtxGetCurrent");
}

QueueHost::~QueueHost() {
  if (!forgotten_) driver_api().mem_free_host(arena_.memory());
}

bool QueueHost::alive() const {
  CUmemorytype type{};
  return driver_api().pointer_get_attribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                            reinterpret_cast<CUdeviceptr>(arena_.memory())) == CUDA_SUCCESS;
}

}  // namespace barracuda::runtime

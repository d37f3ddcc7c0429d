#pragma once
// Device memory barracuda keeps for itself (the queues' producer block), mapped in an address range
// of its own between two unmapped guard ranges.
//
// Why not cuMemAlloc: it carves the block out of the pool the application's cudaMalloc draws from,
// right after the application's latest buffer. A kernel that reads past the end of its last buffer
// (an unguarded `nindex[i + 1]`) reads zeros natively but the tool's live write heads under the tool:
// it then loops over garbage bounds or faults, and its races are never seen. Here the application's
// buffers are laid out exactly as in a native run, and a stray access that runs off their end into
// the tool's range meets a guard (a fault the app would also get natively past its last mapping)
// instead of the tool's state.
#include <cstddef>

#include <cuda.h>

namespace barracuda::runtime {

class ToolDeviceMemory {
 public:
  // At least `bytes` of device memory in the current context; throws std::runtime_error on failure.
  explicit ToolDeviceMemory(size_t bytes);
  // Unmaps and releases it: only while its context exists and no kernel uses it.
  ~ToolDeviceMemory();
  ToolDeviceMemory(const ToolDeviceMemory&) = delete;
  ToolDeviceMemory& operator=(const ToolDeviceMemory&) = delete;

  CUdeviceptr address() const { return mapped_; }
  // The driver released it with its context: the destructor must not touch it.
  void forget() { forgotten_ = true; }

 private:
  void release();

  CUdeviceptr reserved_ = 0;  // start of the whole range, guards included
  size_t reserved_bytes_ = 0;
  CUdeviceptr mapped_ = 0;
  size_t mapped_bytes_ = 0;
  CUmemGenericAllocationHandle handle_ = 0;
  bool has_handle_ = false;
  bool forgotten_ = false;
};

}  // namespace barracuda::runtime

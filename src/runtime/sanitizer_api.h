#pragma once
// The part of NVIDIA's Compute Sanitizer API (sanitizer.h, in the CUDA toolkit's compute-sanitizer/
// folder) the SASS back end uses, declared here from its public reference so that barracuda builds
// where the toolkit ships without those headers; the library is opened at run time
// (sanitizer::Library::open). Values and layouts are the API's; the ctest sanitizer_api_layout_check
// (tests/runtime/sanitizer_api_layout_check.cpp) compares them with the real headers on the GPU machine.
#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace barracuda::runtime::sanitizer {

using Result = int;  // SanitizerResult
inline constexpr Result kSuccess = 0;

enum class Domain : int { kResource = 3 };  // Sanitizer_CallbackDomain
inline constexpr uint32_t kModuleLoaded = 9;           // SANITIZER_CBID_RESOURCE_MODULE_LOADED
inline constexpr uint32_t kModuleUnloadStarting = 10;  // SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING
enum class Instruction : int {                                        // Sanitizer_InstructionId
  kBlockEnter = 1,
  kBlockExit = 2,
  kGlobalMemoryAccess = 3,
  kSharedMemoryAccess = 4,
  kBarrier = 6,
  kSyncwarp = 7,
};

// Sanitizer_ResourceModuleData
struct ModuleData {
  CUcontext context;
  CUmodule module;
  size_t cubin_bytes;
  const char* cubin;
};
static_assert(offsetof(ModuleData, cubin) == 24);

using SubscriberHandle = void*;
using Callback = void (*)(void* userdata, int domain, uint32_t cbid, const void* cbdata);

// The functions, resolved from libsanitizer-public.so.
struct Library {
  Result (*subscribe)(SubscriberHandle* subscriber, Callback callback, void* userdata) = nullptr;
  Result (*enable_domain)(uint32_t enable, SubscriberHandle subscriber, int domain) = nullptr;
  Result (*add_patches)(const void* image, CUcontext context) = nullptr;
  Result (*patch_instructions)(int instruction, CUmodule module, const char* callback) = nullptr;
  Result (*patch_module)(CUmodule module) = nullptr;
  Result (*set_callback_data)(CUfunction function, const void* userdata) = nullptr;
  Result (*function_pc_and_size)(CUmodule module, const char* function, uint64_t* pc, uint64_t* bytes) = nullptr;
  Result (*result_string)(Result result, const char** text) = nullptr;

  // Opens the library (BARRACUDA_SANITIZER_LIBRARY, else the toolkit's compute-sanitizer folder under
  // CUDA_HOME or /usr/local/cuda) and resolves every function; the reason when it cannot.
  static Library open(std::string& error);
  // "SANITIZER_ERROR_... (n)" for messages.
  std::string describe(Result result) const;
};

}  // namespace barracuda::runtime::sanitizer

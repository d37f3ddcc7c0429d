// barracuda's own declarations of the Compute Sanitizer API (runtime/sanitizer_api.h) against the
// toolkit's headers, which only the GPU machine has: compiled there by sanitizer_api_layout_check.sh
// (-fsyntax-only; a failed static_assert fails the test).
#include <sanitizer.h>

#include <cstddef>

#include "barracuda/sass_kernel.h"
#include "runtime/sanitizer_api.h"

namespace api = barracuda::runtime::sanitizer;

static_assert(api::kSuccess == SANITIZER_SUCCESS && sizeof(SanitizerResult) == sizeof(api::Result));
static_assert(static_cast<int>(api::Domain::kResource) == SANITIZER_CB_DOMAIN_RESOURCE);
static_assert(api::kModuleLoaded == SANITIZER_CBID_RESOURCE_MODULE_LOADED);
static_assert(api::kModuleUnloadStarting == SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
static_assert(static_cast<int>(api::Instruction::kBlockEnter) == SANITIZER_INSTRUCTION_BLOCK_ENTER);
static_assert(static_cast<int>(api::Instruction::kBlockExit) == SANITIZER_INSTRUCTION_BLOCK_EXIT);
static_assert(static_cast<int>(api::Instruction::kGlobalMemoryAccess) == SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS);
static_assert(static_cast<int>(api::Instruction::kSharedMemoryAccess) == SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS);
static_assert(static_cast<int>(api::Instruction::kBarrier) == SANITIZER_INSTRUCTION_BARRIER);
static_assert(static_cast<int>(api::Instruction::kSyncwarp) == SANITIZER_INSTRUCTION_SYNCWARP);
static_assert(offsetof(api::ModuleData, context) == offsetof(Sanitizer_ResourceModuleData, context));
static_assert(offsetof(api::ModuleData, module) == offsetof(Sanitizer_ResourceModuleData, module));
static_assert(offsetof(api::ModuleData, cubin_bytes) == offsetof(Sanitizer_ResourceModuleData, cubinSize));
static_assert(offsetof(api::ModuleData, cubin) == offsetof(Sanitizer_ResourceModuleData, pCubin));
static_assert(sizeof(api::SubscriberHandle) == sizeof(Sanitizer_SubscriberHandle));
// The patch module's memory-access flags (device/sass_patch.cu).
static_assert(barracuda::kSassMemoryRead == SANITIZER_MEMORY_DEVICE_FLAG_READ);
static_assert(barracuda::kSassMemoryWrite == SANITIZER_MEMORY_DEVICE_FLAG_WRITE);
static_assert(barracuda::kSassMemoryAtomicSystem == SANITIZER_MEMORY_DEVICE_FLAG_ATOMSYS);
static_assert(barracuda::kSassMemoryPrefetch == SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH);

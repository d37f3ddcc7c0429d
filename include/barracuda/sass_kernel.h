#pragma once
// What the SASS back end's patch callbacks (device/sass_patch.cu) get as their `userdata`: one entry per
// kernel of a module that has no PTX, in device memory the host owns (runtime/sass_backend.h). The
// host writes the entry when it first sees the kernel launched and names each launch in `launch_slot`
// in the launch's stream, as it does a PTX kernel's launch-slot global (barracuda/queue.h).
#include <stddef.h>
#include <stdint.h>

#include "barracuda/queue.h"
#include "barracuda/record_view.h"

namespace barracuda {

struct SassKernelData {
  QueueProducerHeader* producers;  // the queues' producer block (null: log nothing)
  uint64_t function_pc;            // address of the kernel's first instruction
  uint64_t function_bytes;         // its size
  uint32_t launch_slot;            // kNoLaunchSlot between launches
  uint32_t site_base;              // global site id of the kernel's first instruction
};
static_assert(sizeof(SassKernelData) == 32 && offsetof(SassKernelData, launch_slot) == 24);

// The patching API's memory-access flags (Sanitizer_DeviceMemoryFlags): an atomic reads and writes; a
// prefetch touches no data.
inline constexpr uint32_t kSassMemoryRead = 0x1;
inline constexpr uint32_t kSassMemoryWrite = 0x2;
inline constexpr uint32_t kSassMemoryAtomicSystem = 0x4;
inline constexpr uint32_t kSassMemoryPrefetch = 0x8;

// Hopper's instructions are 16 bytes: one site per instruction, and one more for code outside the
// kernel's own body (a device function it calls).
inline constexpr uint32_t kSassInstructionBytes = 16;
BARRACUDA_HOST_DEVICE constexpr uint32_t sass_site_count(uint64_t function_bytes) {
  return static_cast<uint32_t>(function_bytes / kSassInstructionBytes) + 1;
}
BARRACUDA_HOST_DEVICE constexpr uint32_t sass_site(const SassKernelData& kernel, uint64_t pc) {
  const uint64_t offset = pc - kernel.function_pc;
  return kernel.site_base + static_cast<uint32_t>(pc >= kernel.function_pc && offset < kernel.function_bytes
                                                      ? offset / kSassInstructionBytes
                                                      : kernel.function_bytes / kSassInstructionBytes);
}
static_assert(sass_site(SassKernelData{nullptr, 0x1000, 0x100, 0, 7}, 0x1020) == 9 &&
              sass_site(SassKernelData{nullptr, 0x1000, 0x100, 0, 7}, 0x900) == 7 + 16);

}  // namespace barracuda

// Ends a checked launch's claim on its kernel's launch-slot global, in the launch's own stream right
// after the kernel: the global goes back to kNoLaunchSlot only if it still names this launch's slot.
// A plain store there would erase the slot of a later launch of the same kernel, issued into another
// stream while this one ran, before that launch's first warp had read it (runtime/launch_monitor.cpp).
#include "barracuda/queue.h"

extern "C" __global__ void __barracuda_release_launch_slot(unsigned int* slot_global, unsigned int slot) {
  atomicCAS(slot_global, slot, barracuda::kNoLaunchSlot);
}

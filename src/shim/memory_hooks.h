#pragma once
// Announcing device memory to the memory observers (memory_observer.h), for the hooks of other files
// that also release memory (cuMemFree synchronises too: sync_hooks.cpp).
#include "shim/memory_observer.h"

namespace barracuda::shim {

// Tells the memory observers, unless the call was made from inside another hook.
void announce_release(const DeviceRelease& release);

}  // namespace barracuda::shim

#pragma once
// The launch-slot release kernel (device/launch_slot_release.cu) as PTX text, embedded at build time:
// the host loads it once per context in which it creates event queues (runtime/queue_host.h).
#include <string_view>

namespace barracuda {

std::string_view launch_slot_release_ptx();

}  // namespace barracuda

// The kernel's name in that module.
#define BARRACUDA_RELEASE_LAUNCH_SLOT_KERNEL "__barracuda_release_launch_slot"

#pragma once
// Which PTX the driver would JIT for a device, and so the one worth instrumenting.
#include <span>
#include <vector>

#include "fatbin/container.h"
#include "fatbin/entry.h"

namespace barracuda::fatbin {

// The PTX entry with the highest arch not above `device`, ties broken by the highest ISA version;
// nullptr when none fits. Arch- and family-specific PTX (compute_90a, compute_100f) only runs on its
// own arch (or, for family-specific, the same major arch), so it is only chosen there.
const Entry* select_ptx(std::span<const Entry> entries, SmArch device);

// select_ptx in each container that has a fitting PTX. A device-linked (-rdc) image keeps each
// object's PTX in its own prelinked container: the module is all of them, linked together.
std::vector<const Entry*> select_ptx_per_container(std::span<const Container> containers, SmArch device);

}  // namespace barracuda::fatbin

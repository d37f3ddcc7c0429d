#pragma once
// The device logging runtime (device/runtime.cu), embedded at build time: as relocatable PTX text for
// any architecture, and precompiled for sm_90 (and sm_90a links) as a relocatable object whose entry
// points use at most 48 registers. Link one of them with every instrumented module (nvJitLink, -rdc;
// runtime::device_runtime_input picks). The entry points it defines are declared in
// device/entry_points.cuh, the queue pointer it reads is BARRACUDA_QUEUES_SYMBOL.
#include <string_view>

namespace barracuda {

std::string_view device_runtime_ptx();
std::string_view device_runtime_sm90_object();

}  // namespace barracuda

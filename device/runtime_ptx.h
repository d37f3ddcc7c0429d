#pragma once
// The device logging runtime (device/runtime.cu) as relocatable sm_90 PTX text, embedded at build
// time. Link it with every instrumented module (nvJitLink, -rdc); the entry points it defines are
// declared in device/entry_points.cuh, the queue pointer it reads is BARRACUDA_QUEUES_SYMBOL.
#include <string_view>

namespace barracuda {

std::string_view device_runtime_ptx();

}  // namespace barracuda

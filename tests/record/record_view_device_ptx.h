#pragma once
// PTX of record_view_device.cu, embedded at build time like the device runtime's.
#include <string_view>

namespace barracuda {

std::string_view record_view_device_ptx();

}  // namespace barracuda

#include "runtime/launch_filter.h"

namespace barracuda::runtime {

bool LaunchFilter::check(const std::string& kernel) {
  if (settings_.kernels && !std::regex_search(kernel, *settings_.kernels)) return false;
  if (matched_++ < settings_.skip) return false;
  if (settings_.count != 0 && checked_ >= settings_.count) return false;
  if (settings_.sample != 0) {
    uint64_t& of_kernel = checked_per_kernel_[kernel];
    if (of_kernel >= settings_.sample) return false;
    ++of_kernel;
  }
  ++checked_;
  return true;
}

}  // namespace barracuda::runtime

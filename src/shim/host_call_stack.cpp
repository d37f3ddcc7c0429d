#include "shim/host_call_stack.h"

#include <execinfo.h>

#include <iterator>

#include "shim/real_driver.h"

namespace barracuda::shim {
namespace {

// The hook, its thunk and the exported entry point, with room to spare for inlining differences.
constexpr int kShimFramesBound = 8;

}  // namespace

HostCallStack capture_host_call_stack() {
  void* frames[HostCallStack::kMaxFrames + kShimFramesBound];
  const int captured = backtrace(frames, static_cast<int>(std::size(frames)));
  int first = 0;
  while (first < captured && is_shim_address(frames[first])) ++first;
  HostCallStack stack;
  for (int i = first; i < captured && stack.depth < HostCallStack::kMaxFrames; ++i) {
    stack.return_addresses[stack.depth++] = frames[i];
  }
  return stack;
}

}  // namespace barracuda::shim

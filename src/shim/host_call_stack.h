#pragma once
// Where on the host an application call came from: a few return addresses taken when the call is made,
// turned into names only when a report needs them (runtime/allocation_description.h), as
// ThreadSanitizer does for its "allocated by" stacks.
#include <array>
#include <cstddef>
#include <cstdint>

namespace barracuda::shim {

struct HostCallStack {
  static constexpr std::size_t kMaxFrames = 8;
  std::array<const void*, kMaxFrames> return_addresses{};  // innermost first
  std::uint8_t depth = 0;
};

// The calling thread's stack below the shim's own frames (the hook, its thunk, the exported entry
// point), innermost first, at most kMaxFrames. backtrace() walks the unwind tables: a few microseconds,
// no allocation once glibc has loaded its unwinder.
HostCallStack capture_host_call_stack();

}  // namespace barracuda::shim

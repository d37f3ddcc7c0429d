#pragma once
#include <stdexcept>

namespace barracuda::trace {

// A trace file that is malformed, truncated or from an unsupported version; what() says which and where.
class TraceFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace barracuda::trace

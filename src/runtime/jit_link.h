#pragma once
// Compiles an instrumented module to a cubin in-process with nvJitLink (works without a GPU, and links
// the device logging runtime's PTX into the application's PTX in the same step).

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace barracuda::runtime {

class JitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PtxInput {
  std::string_view name;  // shown in nvJitLink's error log
  std::string_view text;  // PTX source, without a trailing NUL
};

struct JitRequest {
  std::vector<PtxInput> inputs;       // linked together (relocatable device code)
  unsigned sm_arch = 90;              // e.g. 90 for sm_90
  std::vector<std::string> ptxas_options;  // from the fat-binary entry's options block ("--generate-line-info")
};

// The options passed to nvJitLink for a request: the architecture, then each ptxas option forwarded
// with -Xptxas (nvJitLink rejects ptxas spellings such as --generate-line-info as its own options).
std::vector<std::string> jit_options(const JitRequest& request);

// Links and compiles; throws JitError carrying nvJitLink's error log when it fails.
std::vector<char> link_to_cubin(const JitRequest& request);

}  // namespace barracuda::runtime

#pragma once
// Tiny hand-written PTX modules for the JIT tests: a kernel that calls an external function, and a
// second module defining that function (the way instrumented code calls the logging runtime).
#include <string_view>

namespace barracuda::runtime::test {

inline constexpr std::string_view kCallerPtx = R"(.version 8.8
.target sm_90
.address_size 64
.extern .func bump(.param .b64 p);
.visible .entry caller(.param .u64 out)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  { .param .b64 arg; st.param.b64 [arg], %rd1; call.uni bump, (arg); }
  ret;
}
)";

inline constexpr std::string_view kCalleePtx = R"(.version 8.8
.target sm_90
.address_size 64
.visible .func bump(.param .b64 p)
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p];
  atom.global.add.u32 %r1, [%rd1], 1;
  ret;
}
)";

inline constexpr std::string_view kBrokenPtx = R"(.version 8.8
.target sm_90
.address_size 64
.visible .entry broken()
{
  frobnicate.u32 %r1;
  ret;
}
)";

}  // namespace barracuda::runtime::test

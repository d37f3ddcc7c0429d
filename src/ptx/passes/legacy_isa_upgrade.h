#pragma once
// Brings PTX written for an old ISA (nvcc 2.x-4.0: `.version 1.4`, `.target sm_10`) up to the ISA and
// target the instrumented module needs, without changing what the driver would compile it to.
// Why: the driver still JIT-compiles such PTX, but the instrumentation calls the device runtime with
// `.param` arguments (ISA 2.0, .target sm_20) and nvJitLink compiles relocatable code (ISA 3.1); left
// at 1.4 the instrumented module fails with one ptxas error per call. What the upgrade rewrites, each
// checked against ptxas 13 (tests/instrument/legacy_ptx_test.cpp compares the machine code):
//   .version < 3.1           -> 3.1, and `.address_size 64` where none is written (64-bit processes only)
//   .target sm_1x            -> sm_20, without map_f64_to_f32 (ignored when compiling for sm_20 and later)
//   single-precision ops     -> `.ftz` written out: sm_1x flushes subnormals implicitly, sm_20 only if told
//   mad.f32 (sm_1x)          -> mad.rn.ftz.f32: a sm_1x target's mad compiles to a fused multiply-add
//   .tex .u32 t              -> .global .texref t (the `.tex` state space ended with ISA 1.5)
//   .maxnctapersm N          -> .minnctapersm N (renamed in ISA 2.0, removed in 2.1)
// What it cannot rewrite it declines with UnsupportedPtx, whose message is one line: 32-bit PTX
// (`.address_size 32`). Constant banks (`.const[2]`, ISA 1.5-2.1) already fail to parse.
#include <stdexcept>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

// A module the instrumentation cannot handle; what() says why in one line.
class UnsupportedPtx : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Rewrites `module` in place; a module already at ISA 3.1 and a target of sm_20 or later is left alone.
void upgrade_legacy_isa(Module& module);

}  // namespace barracuda::ptx::passes

#pragma once
// Hardening (option harden, `barracuda run --harden REPORT.json`): the fences and scopes that an earlier
// report's `barracuda harden` proposals name (report/fence_fix.h), applied to the PTX before it is
// instrumented, so the run checks the program as if they were in its source: a fence inserted after a
// spin's atomic or around a pair of plain accesses, or an access's `.cta` scope widened. An edit names its instruction by the kernel the
// race was in (only modules that define it are edited) and the instruction's line in the module's PTX
// text (the report's `ptx_line`).
#include <cstdint>
#include <span>
#include <string>

#include "ptx/module.h"
#include "ptx/qualifiers.h"

namespace barracuda::ptx::passes {

struct HardeningEdit {
  enum class Kind : uint8_t {
    kFenceAfter,   // insert fence.acq_rel.<scope> after the instruction
    kFenceBefore,  // insert fence.acq_rel.<scope> before the instruction
    kWidenScope,   // give the instruction <scope> instead of a narrower one
  };
  std::string kernel;
  uint32_t ptx_line = 0;
  Kind kind = Kind::kFenceAfter;
  Scope scope = Scope::Gpu;
  friend bool operator==(const HardeningEdit&, const HardeningEdit&) = default;
};

// Applies the edits whose kernel this module defines; returns how many instructions it changed.
uint64_t harden_module(Module& module, std::span<const HardeningEdit> edits);

}  // namespace barracuda::ptx::passes

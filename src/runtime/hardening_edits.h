#pragma once
// Option harden: the PTX edits (ptx/passes/hardening.h) that apply an earlier report's `barracuda
// harden` proposals (report/fence_fix.h) to the modules this run instruments.
#include <string>
#include <vector>

#include "ptx/passes/hardening.h"
#include "report/model.h"

namespace barracuda::runtime {

// One edit per proposal whose site has a PTX line, without repeats.
std::vector<ptx::passes::HardeningEdit> hardening_edits(const report::Report& report);

// The edits of the JSON report at `path`. Throws std::runtime_error naming the file when it cannot be
// read or parsed.
std::vector<ptx::passes::HardeningEdit> hardening_edits_from_file(const std::string& path);

}  // namespace barracuda::runtime

#pragma once
// Hand-built reports shared by the report tests: every field set to a distinctive value.
#include "report/model.h"

namespace barracuda::report::testing {

// Three races (inter-block with an inlining chain, intra-warp without line info, a known scoped
// atomic-plain race), one barrier divergence, one redundant barrier, a skipped kernel, dropped events,
// and statistics.
Report sample_report();

// A race between `first` (the earlier access) and `second` in kernel "k"; the class/space/hazard are
// inter-block, global, write-write unless changed by the caller.
Race sample_race(const Site& first, const Site& second);

Site source_site(const char* function, const char* file, uint32_t line, uint32_t column);

}  // namespace barracuda::report::testing

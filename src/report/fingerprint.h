#pragma once
// A race's identity across runs: a 64-bit FNV-1a hash (16 hex digits) of the kernel, the two
// (site, access kind) pairs in sorted order, the race class, the hazard family and the memory space.
// Sorting the pair and folding read-after-write/write-after-read into one family makes the id
// independent of which access the engine happened to see first. Addresses, threads, launch indices and
// counts are left out: they change from run to run. Changing what is hashed invalidates baselines.
#include <string>

#include "report/model.h"

namespace barracuda::report {

std::string race_fingerprint(const Race& race);

}  // namespace barracuda::report

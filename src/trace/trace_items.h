#pragma once
// What a trace holds, as the writer takes it and the reader yields it.
#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "barracuda/record.h"

namespace barracuda::trace {

struct SiteInfo {
  std::string function;
  uint32_t ptx_line = 0;
  // The instruction's line in the kernel's own code: for an instruction of an inlined function, the
  // outermost call site.
  std::string file;
  uint32_t line = 0;  // 0: no line info
  uint32_t column = 0;
  // For an instruction of an inlined function, its own line (inner_line 0 otherwise).
  std::string inner_file;
  uint32_t inner_line = 0;
  uint32_t inner_column = 0;
  int32_t parameter = -1;  // the kernel parameter an access's address derives from, or -1
  friend bool operator==(const SiteInfo&, const SiteInfo&) = default;
};

// The site table and kernels of one instrumented module.
struct ModuleTable {
  uint32_t module_index = 0;
  uint32_t site_base = 0;  // global site id of sites[0]
  std::vector<std::string> kernels;
  std::vector<SiteInfo> sites;
  friend bool operator==(const ModuleTable&, const ModuleTable&) = default;
};

struct LaunchDescriptor {
  uint64_t launch_id = 0;
  std::string kernel;
  std::array<uint32_t, 3> grid{};
  std::array<uint32_t, 3> block{};
  uint32_t dynamic_shared_bytes = 0;
  uint64_t stream = 0;
  uint32_t queue_count = 0;
  bool launches_child_grids = false;  // engine::LaunchInfo::launches_child_grids
  friend bool operator==(const LaunchDescriptor&, const LaunchDescriptor&) = default;
};

// Raw queue slots: record headers and the address payload slots that follow some of them (record.h).
struct SlotChunk {
  uint32_t queue_index = 0;
  std::vector<RecordHeader> slots;
};

using TraceItem = std::variant<ModuleTable, LaunchDescriptor, SlotChunk>;

}  // namespace barracuda::trace

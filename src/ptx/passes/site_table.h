#pragma once
// The site table: one entry per instrumented instruction, so the host can turn a record's site_id
// back into the kernel, the PTX line and the CUDA source location.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

enum class SiteKind : uint8_t { Access, Synchronization, Branch, Reconvergence, Entry, Exit };
std::string_view to_string(SiteKind kind);

struct Site {
  uint32_t id = 0;  // what the record carries in RecordHeader::site_id
  SiteKind kind = SiteKind::Access;
  std::string function;     // kernel or device function containing the instruction
  std::string instruction;  // the PTX instruction as printed, e.g. "st.global.u32 [%rd4], %r3"
  uint32_t ptx_line = 0;    // line in the PTX text given to the instrumenter (0: none)
  // The user's line: the end of the .loc inlined_at chain (empty file without line information).
  std::string source_file;
  uint32_t source_line = 0;
  uint32_t source_column = 0;
  // Where the instruction itself was written when it was inlined there (e.g. a libcu++ header);
  // empty file when not inlined.
  std::string inlined_file;
  uint32_t inlined_line = 0;
  uint32_t inlined_column = 0;
  // The kernel parameter (index) the access's address derives from (address_parameters.h), or -1.
  int32_t parameter = -1;
};

class SiteTable {
 public:
  // Ids start at `first_id` so sites of several modules of one process never collide.
  explicit SiteTable(const Module& module, uint32_t first_id);

  // Registers the site of `instruction` in `function` and returns its id.
  // `parameter`: the kernel parameter the access's address derives from, or -1.
  uint32_t add(SiteKind kind, const Function& function, const Instruction& instruction, int32_t parameter = -1);

  const std::vector<Site>& sites() const { return sites_; }
  uint32_t first_id() const { return first_id_; }

 private:
  // .file index -> path without quotes ("" for an unknown index).
  std::string_view file_path(uint32_t index) const;

  std::vector<std::string> file_paths_;
  std::vector<Site> sites_;
  uint32_t first_id_;
};

// {"first_id": N, "sites": [{"id", "kind", "function", "instruction", "ptx_line", "file", "line", "column",
//                            "inlined": {"file", "line", "column"} (only for inlined instructions)}]}
nlohmann::json to_json(const SiteTable& table);

}  // namespace barracuda::ptx::passes

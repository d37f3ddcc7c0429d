#pragma once
// Source lines of a cubin's machine code: the DWARF line table (.debug_line) nvcc writes with
// -lineinfo, whose addresses are relocated against each kernel's symbol (.rela.debug_line), so every
// row is an offset into one kernel's code. The SASS back end names its sites with them.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace barracuda::fatbin {

// From `offset` (bytes from the kernel's first instruction) on, until the next row, the code is
// `file`:`line`; line 0 ends a sequence (no line).
struct SassLine {
  std::uint64_t offset = 0;
  std::string file;
  std::uint32_t line = 0;
  friend bool operator==(const SassLine&, const SassLine&) = default;
};
using KernelLines = std::map<std::string, std::vector<SassLine>, std::less<>>;

// Rows by kernel, each kernel's sorted by offset; empty when the cubin has no line table. Throws
// FormatError (or std::runtime_error for what libelf refuses) on a malformed one; DWARF 5 tables are
// not read (nvcc writes version 2).
KernelLines read_cubin_lines(std::span<const std::byte> cubin);

// The row in effect at `offset`, or null (before the first row, or where a sequence ended).
const SassLine* line_at(const std::vector<SassLine>& lines, std::uint64_t offset);

}  // namespace barracuda::fatbin

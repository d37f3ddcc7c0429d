#pragma once
// Where things come from: a position in the PTX text, and the CUDA source line a `.loc` points at.
#include <cstdint>

namespace barracuda::ptx {

// 1-based line and column in the PTX text given to the parser (0 = synthesized by a pass).
struct SourcePosition {
  uint32_t line = 0;
  uint32_t column = 0;
  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

// The CUDA source location of an instruction: the `.loc FILE LINE COLUMN` that precedes it.
// `file` indexes the module's `.file` table; file 0 means "no line information".
struct DebugLocation {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t column = 0;
  bool known() const { return file != 0; }
  friend bool operator==(const DebugLocation&, const DebugLocation&) = default;
};

}  // namespace barracuda::ptx

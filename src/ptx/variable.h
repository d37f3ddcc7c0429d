#pragma once
// A variable declaration: module-level .global/.const/.shared data, function parameters and return
// values, and .local/.shared/.param variables declared inside a function body.
//   .visible .global .attribute(.managed) .align 4 .v2 .b32 table[16] = {...};
//   .param .u64 .ptr .global .align 8 kernel_param_0
#include <cstdint>
#include <string_view>

#include "ptx/qualifiers.h"
#include "ptx/source_position.h"

namespace barracuda::ptx {

struct VariableDeclaration {
  Linkage linkage = Linkage::None;
  StateSpace space = StateSpace::Global;
  // `.attribute(...)` text before the alignment, verbatim; empty when absent.
  std::string_view attribute;
  uint32_t alignment = 0;  // .align N; 0 when not written
  uint8_t vector_width = 1;
  std::string_view type_name;  // "b8", "u64", "texref", "samplerref", ... (no dot)
  ScalarType type = ScalarType::None;  // decoded type_name (None for opaque types)
  // `.ptr .global .align 8` after the type of a kernel pointer parameter, verbatim; empty if absent.
  std::string_view pointer_attributes;
  std::string_view name;
  std::string_view array_suffix;  // "[400]", "[]", "[4][8]" verbatim; empty for scalars
  std::string_view initializer;   // text after '=' (braces included), verbatim; empty if none
  SourcePosition position;
};

}  // namespace barracuda::ptx

#pragma once
// The statements of a function body, in source order. Instructions are one kind among labels,
// declarations and directives, so printing the body statement by statement reproduces the function.
#include <cstdint>
#include <list>
#include <string_view>
#include <variant>
#include <vector>

#include "ptx/instruction.h"
#include "ptx/variable.h"

namespace barracuda::ptx {

// `$L__BB0_2:`
struct Label {
  std::string_view name;
  SourcePosition position;
};

// `.reg .b32 %r<27>, tmp;` A range `%r<27>` declares %r0 .. %r26.
struct RegisterDeclaration {
  struct Name {
    std::string_view name;  // "%r" for the range %r<27>, "tmp" for a single register
    uint32_t range = 0;     // 27 for %r<27>; 0 for a single register
  };
  std::string_view type_name;  // "b32", "pred", ... (no dot)
  ScalarType type = ScalarType::None;
  uint8_t vector_width = 1;
  std::vector<Name> names;
  SourcePosition position;

  // Whether `reg` ("%r5") is one of the declared registers.
  bool declares(std::string_view reg) const;
};

// `.loc 2 107 3, function_name $L__info_string0, inlined_at 1 9 3`
struct LocDirective {
  DebugLocation location;
  std::string_view function_name;  // empty when absent
  DebugLocation inlined_at;        // file 0 when absent
  SourcePosition position;
};

// `.branchtargets L1, L2;`: the label table of a `brx.idx`; follows the table's Label statement.
struct BranchTargets {
  std::vector<std::string_view> labels;
  SourcePosition position;
};

// Any other directive statement kept verbatim, ';' included: `.pragma "nounroll";`,
// `.callprototype (.param .b32 _) _ (.param .b32 _);`.
struct Directive {
  std::string_view text;
  SourcePosition position;
};

// `{` and `}` of an inline scope (call sequences, inline asm blocks).
struct ScopeBegin {
  SourcePosition position;
};
struct ScopeEnd {
  SourcePosition position;
};

using Statement = std::variant<Instruction, Label, RegisterDeclaration, VariableDeclaration,
                               LocDirective, BranchTargets, Directive, ScopeBegin, ScopeEnd>;

// Function bodies are lists so passes can insert while holding iterators to other statements.
using StatementList = std::list<Statement>;
using StatementIterator = StatementList::iterator;

}  // namespace barracuda::ptx

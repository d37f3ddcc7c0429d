#pragma once
// A parsed PTX module. It owns the PTX text and an arena for strings created later (by passes),
// and every std::string_view in the IR points into one of the two: the Module must outlive all
// statements, instructions and operands taken from it. Items live in a std::list, so references
// to functions stay valid while passes add declarations.
#include <deque>
#include <list>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ptx/function.h"
#include "ptx/statement.h"
#include "ptx/variable.h"

namespace barracuda::ptx {

struct VersionDirective {  // .version 9.0
  uint32_t major = 0;
  uint32_t minor = 0;
};

struct TargetDirective {  // .target sm_90a, debug
  std::vector<std::string_view> targets;
};

struct AddressSizeDirective {  // .address_size 64
  uint32_t bits = 64;
};

// `.file 1 "/src/a.cu", 1700000000, 1234`: `path` keeps its quotes, `rest` is the verbatim text after
// the path (", timestamp, size") or empty.
struct FileDirective {
  uint32_t index = 0;
  std::string_view path;
  std::string_view rest;
};

// Module-level directives kept verbatim (';' or closing brace included): `.section .debug_info
// { ... }` debug sections, `.pragma`, `.alias`.
using ModuleItem = std::variant<VersionDirective, TargetDirective, AddressSizeDirective, FileDirective,
                                VariableDeclaration, Function, Directive>;

class Module {
 public:
  explicit Module(std::string source);
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  std::list<ModuleItem> items;

  // The PTX text the module was parsed from.
  std::string_view source() const { return source_; }
  // Copies `text` into memory owned by the module (for names and mnemonics a pass creates).
  std::string_view intern(std::string_view text);

  std::vector<Function*> functions();
  std::vector<const Function*> functions() const;
  Function* find_function(std::string_view name);
  // Kernels and functions that have a body.
  std::vector<Function*> definitions();

 private:
  std::string source_;
  std::deque<std::string> arena_;  // deque: growing it never moves the strings views point into
};

}  // namespace barracuda::ptx

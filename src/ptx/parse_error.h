#pragma once
// The result of parsing: a module, or an error that names the line and column of the problem.
#include <memory>
#include <string>

#include "ptx/module.h"
#include "ptx/source_position.h"

namespace barracuda::ptx {

struct ParseError {
  SourcePosition position;
  std::string message;
  // "LINE:COLUMN: MESSAGE"
  std::string to_string() const;
};

// Exactly one of `module` and `error` is meaningful: `module` is null when parsing failed.
struct ParseResult {
  std::unique_ptr<Module> module;
  ParseError error;
  explicit operator bool() const { return module != nullptr; }
};

}  // namespace barracuda::ptx

#pragma once
// PTX text -> Module. Accepts what nvcc emits and the driver accepts (ISA up to 9.0), including the
// comment- and indentation-stripped form stored in fat binaries. Never throws: malformed input gives
// a ParseError with the line and column of the first problem.
#include <string>

#include "ptx/parse_error.h"

namespace barracuda::ptx {

// The module takes ownership of `source`; a trailing NUL (as stored in fat binaries) is accepted.
ParseResult parse(std::string source);

}  // namespace barracuda::ptx

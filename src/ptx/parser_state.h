#pragma once
// Internal to the parser: the token cursor shared by the module-level and function-body grammars.
// Parse errors unwind to parse() as a ParseFailure exception and never cross the public API.
#include <cstdint>
#include <string>
#include <string_view>

#include "ptx/lexer.h"
#include "ptx/module.h"
#include "ptx/parse_error.h"

namespace barracuda::ptx::detail {

struct ParseFailure {
  ParseError error;
};

class ParserState {
 public:
  explicit ParserState(Module& module) : module_(module), lexer_(module.source()) {}

  const Token& peek() const { return lexer_.peek(); }
  Token next();
  bool accept(char punct);
  Token expect(char punct, std::string_view context);
  Token expect(TokenKind kind, std::string_view what);
  [[noreturn]] void fail(const Token& at, std::string message) const;

  // The source text from the first character of `first` up to the end of the last consumed token.
  std::string_view text_since(const Token& first) const;
  // Consumes tokens through the next ';' outside braces and returns the text from `first` on.
  std::string_view skip_statement(const Token& first);
  // Consumes tokens through the '}' that closes the next '{' and returns the text from `first` on.
  std::string_view skip_braced_block(const Token& first);
  // Consumes a '(' through its matching ')' and returns the text from `first` on.
  std::string_view skip_parenthesized(const Token& first);

  uint32_t parse_u32(const Token& token) const;
  int64_t parse_integer(const Token& token) const;

  Module& module() { return module_; }

 private:
  Module& module_;
  Lexer lexer_;
};

// One declaration `[linkage] .space attributes... name[dims] [= init]`, stopping before ; , or ).
VariableDeclaration parse_variable(ParserState& state, Linkage linkage, const Token& space_token);
// A function body from the token after its opening '{' through the closing '}'.
void parse_body(ParserState& state, Function& function);

}  // namespace barracuda::ptx::detail

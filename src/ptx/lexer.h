#pragma once
// Splits PTX text into tokens on demand, without allocating: every token is a view into the source.
// Comments and whitespace are skipped; line and column are tracked for error messages.
#include <cstdint>
#include <optional>
#include <string_view>

#include "ptx/source_position.h"

namespace barracuda::ptx {

enum class TokenKind : uint8_t {
  End,         // end of input (also a NUL byte: fat binaries store PTX NUL-terminated)
  Identifier,  // ld.global.u32, %r1, %tid.x, $L__BB0_2, _Z3fooi, shared::cluster
  Directive,   // .reg, .b32, .shared::cta (a dot, then a word)
  Integer,     // 42, 0x1F, 0b101, 7U
  Float,       // 0f3F800000, 0d3FF0000000000000, 1.5, 2e10
  String,      // "quoted", quotes included
  Punct,       // any other single character: , ; : { } [ ] ( ) + - ! @ < > = |
  Invalid,     // a character that cannot start a token, or an unterminated comment/string
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  SourcePosition position;

  bool is(char punct) const { return kind == TokenKind::Punct && text[0] == punct; }
  bool is_directive(std::string_view name) const { return kind == TokenKind::Directive && text == name; }
};

class Lexer {
 public:
  explicit Lexer(std::string_view source);

  // The next token, consumed.
  Token next() {
    Token token = lookahead_;
    if (token.kind != TokenKind::End) consumed_end_ = offset_of(token) + token.text.size();
    lookahead_ = scan();
    return token;
  }
  // With '{' as the next token: consumes through the matching '}' scanning characters, not tokens
  // (debug sections are megabytes of numbers). False, with nothing consumed, if the '}' is missing.
  bool skip_braced_block();
  // The next token, not consumed.
  const Token& peek() const { return lookahead_; }

  // Byte offset of a token's first character in the source.
  size_t offset_of(const Token& token) const { return static_cast<size_t>(token.text.data() - source_.data()); }
  // Byte offset just past the last consumed token.
  size_t consumed_end() const { return consumed_end_; }
  std::string_view source() const { return source_; }

 private:
  Token scan();
  void skip_whitespace_and_comments();
  SourcePosition here() const;
  Token make(TokenKind kind, size_t start, SourcePosition position) const;
  void scan_number(bool& is_float);
  void skip_comment_or_string();

  std::string_view source_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
  std::optional<SourcePosition> unterminated_comment_;  // where a comment without "*/" starts
  size_t consumed_end_ = 0;
  Token lookahead_;
};

}  // namespace barracuda::ptx

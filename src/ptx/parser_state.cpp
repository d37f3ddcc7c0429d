#include "ptx/parser_state.h"

#include <charconv>

namespace barracuda::ptx::detail {
namespace {

std::string quoted(std::string_view text) {
  std::string result(1, '\'');
  result.append(text);
  result.push_back('\'');
  return result;
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::End: return "end of input";
    case TokenKind::Invalid: return token.text.empty() ? "an unterminated comment" : "invalid text " + quoted(token.text);
    default: return quoted(token.text);
  }
}

}  // namespace

Token ParserState::next() {
  if (peek().kind == TokenKind::Invalid) fail(peek(), "unexpected " + describe(peek()));
  return lexer_.next();
}

bool ParserState::accept(char punct) {
  if (!peek().is(punct)) return false;
  lexer_.next();
  return true;
}

Token ParserState::expect(char punct, std::string_view context) {
  if (!peek().is(punct))
    fail(peek(), "expected '" + std::string(1, punct) + "' " + std::string(context) + ", found " + describe(peek()));
  return lexer_.next();
}

Token ParserState::expect(TokenKind kind, std::string_view what) {
  if (peek().kind != kind) fail(peek(), "expected " + std::string(what) + ", found " + describe(peek()));
  return lexer_.next();
}

void ParserState::fail(const Token& at, std::string message) const {
  throw ParseFailure{ParseError{at.position, std::move(message)}};
}

std::string_view ParserState::text_since(const Token& first) const {
  size_t begin = lexer_.offset_of(first);
  return lexer_.source().substr(begin, lexer_.consumed_end() - begin);
}

std::string_view ParserState::skip_statement(const Token& first) {
  int depth = 0;
  while (!(depth == 0 && peek().is(';'))) {
    if (peek().kind == TokenKind::End) fail(peek(), "expected ';' to end the statement that starts at line " +
                                                        std::to_string(first.position.line));
    if (peek().is('{')) ++depth;
    if (peek().is('}') && --depth < 0) fail(peek(), "unbalanced '}'");
    next();
  }
  next();
  return text_since(first);
}

std::string_view ParserState::skip_braced_block(const Token& first) {
  while (!peek().is('{')) {
    if (peek().kind == TokenKind::End || peek().is(';')) fail(peek(), "expected '{' after " + describe(first));
    next();
  }
  if (!lexer_.skip_braced_block())
    fail(peek(), "expected '}' to close the block that starts at line " + std::to_string(peek().position.line));
  return text_since(first);
}

std::string_view ParserState::skip_parenthesized(const Token& first) {
  expect('(', "after " + describe(first));
  for (int depth = 1; depth > 0;) {
    if (peek().kind == TokenKind::End) fail(peek(), "expected ')' to close the '(' after " + describe(first));
    if (peek().is('(')) ++depth;
    if (peek().is(')')) --depth;
    next();
  }
  return text_since(first);
}

int64_t ParserState::parse_integer(const Token& token) const {
  std::string_view text = token.text;
  if (text.ends_with('U')) text.remove_suffix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc{} || end != text.data() + text.size() || text.empty())
    fail(token, "invalid integer '" + std::string(token.text) + "'");
  return static_cast<int64_t>(value);
}

uint32_t ParserState::parse_u32(const Token& token) const {
  if (token.kind != TokenKind::Integer) fail(token, "expected an integer, found " + describe(token));
  int64_t value = parse_integer(token);
  if (value < 0 || value > UINT32_MAX) fail(token, "integer '" + std::string(token.text) + "' out of range");
  return static_cast<uint32_t>(value);
}

}  // namespace barracuda::ptx::detail

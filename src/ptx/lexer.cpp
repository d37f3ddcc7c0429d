#include "ptx/lexer.h"

#include <array>

namespace barracuda::ptx {
namespace {

// Character classes, one bit each, looked up in a table: the lexer's inner loops test every byte.
enum CharClass : uint8_t { kLetter = 1, kDigit = 2, kHex = 4, kWord = 8, kIdentifierStart = 16, kSpace = 32 };

constexpr std::array<uint8_t, 256> kClasses = [] {
  std::array<uint8_t, 256> classes{};
  for (int c = 0; c < 256; ++c) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    uint8_t bits = 0;
    if (letter) bits |= kLetter | kWord | kIdentifierStart;
    if (digit) bits |= kDigit | kHex | kWord;
    if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) bits |= kHex;
    if (c == '_' || c == '$') bits |= kWord | kIdentifierStart;
    if (c == '%') bits |= kIdentifierStart;  // PTX identifiers: a letter, or _ $ % then word characters
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') bits |= kSpace;
    classes[static_cast<size_t>(c)] = bits;
  }
  return classes;
}();

bool has(char c, CharClass bit) { return kClasses[static_cast<unsigned char>(c)] & bit; }
bool is_letter(char c) { return has(c, kLetter); }
bool is_digit(char c) { return has(c, kDigit); }
bool is_hex_digit(char c) { return has(c, kHex); }
bool is_word_char(char c) { return has(c, kWord); }
bool starts_identifier(char c) { return has(c, kIdentifierStart); }

}  // namespace

Lexer::Lexer(std::string_view source) : source_(source) { lookahead_ = scan(); }

bool Lexer::skip_braced_block() {
  if (!lookahead_.is('{')) return false;
  size_t saved_pos = pos_, saved_line_start = line_start_;
  uint32_t saved_line = line_;
  pos_ = offset_of(lookahead_);
  for (int depth = 0; pos_ < source_.size() && source_[pos_] != '\0';) {
    char c = source_[pos_];
    if (c == '/' || c == '"' || c == '\n') {
      skip_comment_or_string();
      continue;
    }
    ++pos_;
    if (c == '{') ++depth;
    if (c == '}' && --depth == 0) {
      consumed_end_ = pos_;
      lookahead_ = scan();
      return true;
    }
  }
  pos_ = saved_pos;
  line_start_ = saved_line_start;
  line_ = saved_line;
  return false;
}

// At a '/', '"' or newline inside a raw-skipped block: steps over it (tracking lines).
void Lexer::skip_comment_or_string() {
  char c = source_[pos_];
  if (c == '"') {
    size_t close = source_.find('"', pos_ + 1);
    pos_ = close == std::string_view::npos ? source_.size() : close + 1;
  } else if (c == '/' && pos_ + 1 < source_.size() && (source_[pos_ + 1] == '/' || source_[pos_ + 1] == '*')) {
    skip_whitespace_and_comments();
  } else if (c == '\n') {
    skip_whitespace_and_comments();
  } else {
    ++pos_;
  }
}

SourcePosition Lexer::here() const {
  return {line_, static_cast<uint32_t>(pos_ - line_start_ + 1)};
}

Token Lexer::make(TokenKind kind, size_t start, SourcePosition position) const {
  return {kind, source_.substr(start, pos_ - start), position};
}

void Lexer::skip_whitespace_and_comments() {
  while (pos_ < source_.size()) {
    char c = source_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (has(c, kSpace)) {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < source_.size() && source_[pos_ + 1] == '/') {
      while (pos_ < source_.size() && source_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < source_.size() && source_[pos_ + 1] == '*') {
      SourcePosition start = here();
      size_t close = source_.find("*/", pos_ + 2);
      size_t end = close == std::string_view::npos ? source_.size() : close + 2;
      for (; pos_ < end; ++pos_) {
        if (source_[pos_] == '\n') {
          ++line_;
          line_start_ = pos_ + 1;
        }
      }
      if (close == std::string_view::npos) unterminated_comment_ = start;
    } else {
      return;
    }
  }
}

void Lexer::scan_number(bool& is_float) {
  auto take_while = [&](auto predicate) {
    while (pos_ < source_.size() && predicate(source_[pos_])) ++pos_;
  };
  char prefix = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';
  if (source_[pos_] == '0' && (prefix == 'f' || prefix == 'F' || prefix == 'd' || prefix == 'D') &&
      pos_ + 2 < source_.size() && is_hex_digit(source_[pos_ + 2])) {
    pos_ += 2;
    take_while(is_hex_digit);
    is_float = true;
    return;
  }
  if (source_[pos_] == '0' && (prefix == 'x' || prefix == 'X' || prefix == 'b' || prefix == 'B')) {
    pos_ += 2;
    take_while(is_hex_digit);
  } else {
    take_while(is_digit);
    if (pos_ < source_.size() && source_[pos_] == '.') {
      is_float = true;
      ++pos_;
      take_while(is_digit);
    }
    if (pos_ < source_.size() && (source_[pos_] == 'e' || source_[pos_] == 'E')) {
      is_float = true;
      ++pos_;
      if (pos_ < source_.size() && (source_[pos_] == '+' || source_[pos_] == '-')) ++pos_;
      take_while(is_digit);
    }
  }
  if (!is_float && pos_ < source_.size() && source_[pos_] == 'U') ++pos_;
}

Token Lexer::scan() {
  skip_whitespace_and_comments();
  SourcePosition position = here();
  size_t start = pos_;
  if (unterminated_comment_) return {TokenKind::Invalid, source_.substr(start, 0), *unterminated_comment_};
  if (pos_ >= source_.size() || source_[pos_] == '\0') return {TokenKind::End, source_.substr(pos_, 0), position};
  char c = source_[pos_];
  char following = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';

  if (starts_identifier(c) || (c == '.' && (is_letter(following) || following == '_'))) {
    bool directive = c == '.';
    ++pos_;
    while (pos_ < source_.size()) {
      char d = source_[pos_];
      if (is_word_char(d) || (d == '.' && !directive)) {
        ++pos_;
      } else if (d == ':' && pos_ + 1 < source_.size() && source_[pos_ + 1] == ':') {
        pos_ += 2;  // shared::cta, mbarrier::complete_tx::bytes
      } else {
        break;
      }
    }
    return make(directive ? TokenKind::Directive : TokenKind::Identifier, start, position);
  }
  if (is_digit(c)) {
    bool is_float = false;
    scan_number(is_float);
    return make(is_float ? TokenKind::Float : TokenKind::Integer, start, position);
  }
  if (c == '"') {
    ++pos_;
    while (pos_ < source_.size() && source_[pos_] != '"' && source_[pos_] != '\n') {
      pos_ += source_[pos_] == '\\' && pos_ + 1 < source_.size() ? 2 : 1;
    }
    if (pos_ >= source_.size() || source_[pos_] != '"') return make(TokenKind::Invalid, start, position);
    ++pos_;
    return make(TokenKind::String, start, position);
  }
  ++pos_;
  bool printable = c > ' ' && c < 127;
  return make(printable ? TokenKind::Punct : TokenKind::Invalid, start, position);
}

}  // namespace barracuda::ptx

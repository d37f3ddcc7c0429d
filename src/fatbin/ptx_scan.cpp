#include "fatbin/ptx_scan.h"

#include <cctype>
#include <charconv>

namespace barracuda::fatbin {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_identifier(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '.' || c == '%';
}

std::string_view trim_front(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  return text;
}

// Calls `visit` with each line, leading whitespace removed, skipping `//` comment lines.
template <typename Visit>
void for_each_line(std::string_view ptx, Visit visit) {
  while (!ptx.empty()) {
    auto end = ptx.find('\n');
    auto line = trim_front(ptx.substr(0, end));
    ptx.remove_prefix(end == std::string_view::npos ? ptx.size() : end + 1);
    if (!line.starts_with("//") && !visit(line)) return;
  }
}

// The identifier after `directive` when `line` holds it as a whole word, else empty.
std::string_view word_after(std::string_view line, std::string_view directive) {
  for (auto at = line.find(directive); at != std::string_view::npos; at = line.find(directive, at + 1)) {
    auto after = at + directive.size();
    bool starts_word = at == 0 || is_space(line[at - 1]);
    if (!starts_word || after >= line.size() || !is_space(line[after])) continue;
    auto rest = trim_front(line.substr(after));
    std::size_t length = 0;
    while (length < rest.size() && is_identifier(rest[length])) ++length;
    return rest.substr(0, length);
  }
  return {};
}

// The word after the first occurrence of a module directive such as `.version`.
std::string_view first_word_after(std::string_view ptx, std::string_view directive) {
  std::string_view word;
  for_each_line(ptx, [&](std::string_view line) {
    word = word_after(line, directive);
    return word.empty();
  });
  return word;
}

template <typename Integer>
bool parse_number(std::string_view text, Integer& value) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && end != text.data();
}

}  // namespace

std::vector<std::string> ptx_kernels(std::string_view ptx) {
  std::vector<std::string> kernels;
  for_each_line(ptx, [&](std::string_view line) {
    if (auto name = word_after(line, ".entry"); !name.empty()) kernels.emplace_back(name);
    return true;
  });
  return kernels;
}

std::optional<IsaVersion> ptx_isa_version(std::string_view ptx) {
  auto word = first_word_after(ptx, ".version");
  auto dot = word.find('.');
  IsaVersion version;
  if (dot == std::string_view::npos || !parse_number(word.substr(0, dot), version.major) ||
      !parse_number(word.substr(dot + 1), version.minor)) {
    return std::nullopt;
  }
  return version;
}

std::optional<SmArch> ptx_target(std::string_view ptx) {
  auto word = first_word_after(ptx, ".target");
  SmArch arch;
  if (!word.starts_with("sm_") || !parse_number(word.substr(3), arch.value)) return std::nullopt;
  return arch;
}

}  // namespace barracuda::fatbin

#include "options/options.h"

#include <algorithm>
#include <utility>

namespace barracuda::options {
namespace {

template <typename Kind>
void assign(std::string_view key, std::string_view text, typename Kind::type& field) {
  auto value = Kind::parse(text);
  if (!value) {
    throw OptionsError("BARRACUDA_OPTIONS: bad value \"" + std::string{text} + "\" for " + std::string{key} +
                       ": expected " + std::string{Kind::kExpected});
  }
  field = std::move(*value);
}

void assign_option(std::string_view key, std::string_view text, Options& options) {
#define BARRACUDA_OPTION_ASSIGN(name, kind, default_value, help) \
  if (key == #name) return assign<kind>(key, text, options.name);
  BARRACUDA_OPTION_TABLE(BARRACUDA_OPTION_ASSIGN)
#undef BARRACUDA_OPTION_ASSIGN
  throw OptionsError("BARRACUDA_OPTIONS: unknown option \"" + std::string{key} + "\" (help=1 lists them)");
}

std::string help_line(std::string_view name, std::string_view help, const std::string& default_text) {
  std::string line = "  " + std::string{name};
  line.resize(std::max<size_t>(line.size() + 1, 18), ' ');
  return line + std::string{help} + " (default: \"" + default_text + "\")\n";
}

}  // namespace

void parse_options(std::string_view text, Options& options) {
  while (!text.empty()) {
    const size_t end = std::min(text.find(':'), text.size());
    const std::string_view entry = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (entry.empty()) continue;
    const size_t equals = entry.find('=');
    if (equals == std::string_view::npos) {
      throw OptionsError("BARRACUDA_OPTIONS: \"" + std::string{entry} + "\" is not key=value");
    }
    assign_option(entry.substr(0, equals), entry.substr(equals + 1), options);
  }
  if (options.quiet && options.verbose) throw OptionsError("BARRACUDA_OPTIONS: quiet and verbose exclude each other");
}

std::string format_options(const Options& options) {
  const Options defaults;
  std::string text;
#define BARRACUDA_OPTION_FORMAT(name, kind, default_value, help)     \
  if (options.name != defaults.name) {                               \
    text += text.empty() ? "" : ":";                                 \
    text += #name "=" + kind::format(options.name);                  \
  }
  BARRACUDA_OPTION_TABLE(BARRACUDA_OPTION_FORMAT)
#undef BARRACUDA_OPTION_FORMAT
  return text;
}

std::string options_help() {
  const Options defaults;
  std::string text = "BARRACUDA_OPTIONS=key=value:key=value\n";
#define BARRACUDA_OPTION_HELP(name, kind, default_value, help) text += help_line(#name, help, kind::format(defaults.name));
  BARRACUDA_OPTION_TABLE(BARRACUDA_OPTION_HELP)
#undef BARRACUDA_OPTION_HELP
  return text;
}

}  // namespace barracuda::options

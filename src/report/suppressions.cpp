#include "report/suppressions.h"

#include <algorithm>

namespace barracuda::report {
namespace {

constexpr std::string_view kRaceType = "race:";

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

// Glob match where '*' is the only wildcard; greedy with backtracking to the last star, so it runs in
// O(|pattern| * |name|) at worst instead of exponential time.
bool glob_matches(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0;
  size_t star = std::string_view::npos, star_name = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_name = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++star_name;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

void collect_names(const Site& site, std::vector<std::string_view>& names) {
  names.push_back(site.function);
  if (!site.source.file.empty()) names.push_back(site.source.file);
  for (const InlinedFrame& frame : site.inlined_at) {
    names.push_back(frame.function);
    if (!frame.location.file.empty()) names.push_back(frame.location.file);
  }
}

bool race_matches(std::string_view pattern, const Race& race) {
  std::vector<std::string_view> names{race.kernel};
  collect_names(race.current.site, names);
  collect_names(race.previous.site, names);
  return std::any_of(names.begin(), names.end(),
                     [&](std::string_view name) { return suppression_pattern_matches(pattern, name); });
}

}  // namespace

bool suppression_pattern_matches(std::string_view pattern, std::string_view name) {
  std::string glob;
  if (pattern.starts_with('^')) {
    pattern.remove_prefix(1);
  } else {
    glob += '*';
  }
  const bool anchored_end = pattern.ends_with('$');
  if (anchored_end) pattern.remove_suffix(1);
  glob += pattern;
  if (!anchored_end) glob += '*';
  return glob_matches(glob, name);
}

std::vector<Suppression> parse_suppressions(std::string_view text, std::string_view source_name) {
  std::vector<Suppression> suppressions;
  uint32_t line_number = 0;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++line_number;
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const auto where = std::string{source_name} + ':' + std::to_string(line_number) + ": ";
    if (!line.starts_with(kRaceType)) {
      throw SuppressionsError(where + "expected \"race:PATTERN\", got \"" + std::string{line} + '"');
    }
    const std::string_view pattern = trim(line.substr(kRaceType.size()));
    if (pattern.empty() || pattern == "^" || pattern == "$" || pattern == "^$") {
      throw SuppressionsError(where + "empty pattern (use race:* to suppress every race)");
    }
    suppressions.push_back(Suppression{std::string{pattern}, line_number, 0});
  }
  return suppressions;
}

void apply_suppressions(Report& report, std::vector<Suppression>& suppressions) {
  std::erase_if(report.races, [&](const Race& race) {
    for (Suppression& suppression : suppressions) {
      if (race_matches(suppression.pattern, race)) {
        ++suppression.hit_count;
        ++report.summary.suppressed_races;
        return true;
      }
    }
    return false;
  });
}

}  // namespace barracuda::report

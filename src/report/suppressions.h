#pragma once
// ThreadSanitizer-style suppressions file: one "race:PATTERN" per line, '#' starts a comment, blank
// lines are ignored. A pattern matches a race when it matches the kernel name, a function of either
// access (inlined-at frames included) or one of their source files. As in TSan, '*' matches any run of
// characters, a leading '^' / trailing '$' anchor the match, and an unanchored pattern matches anywhere
// inside the name ("race:reduce" suppresses races in "block_reduce<float>").
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "report/model.h"

namespace barracuda::report {

class SuppressionsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Suppression {
  std::string pattern;
  uint32_t line = 0;       // line in the file, for messages
  uint64_t hit_count = 0;  // unique races it suppressed
};

// Throws SuppressionsError naming `source_name` and the line for malformed entries.
std::vector<Suppression> parse_suppressions(std::string_view text, std::string_view source_name);

// TSan's template match, exposed for tests.
bool suppression_pattern_matches(std::string_view pattern, std::string_view name);

// Removes the races some suppression matches, counting them in report.summary.suppressed_races and in
// the first matching suppression's hit_count.
void apply_suppressions(Report& report, std::vector<Suppression>& suppressions);

}  // namespace barracuda::report

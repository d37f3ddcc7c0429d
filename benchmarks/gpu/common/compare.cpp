#include "compare.h"

#include <cmath>
#include <sstream>

namespace bench {
namespace {

template <typename T>
std::string describe_mismatch(const char* what, std::size_t index, T got, T want) {
  std::ostringstream out;
  out << what << "[" << index << "] = " << got << ", expected " << want;
  return out.str();
}

std::string describe_size_mismatch(const char* what, std::size_t got, std::size_t want) {
  std::ostringstream out;
  out << what << ": " << got << " elements, expected " << want;
  return out.str();
}

}  // namespace

std::string compare_close(const char* what, const std::vector<float>& got, const std::vector<float>& want,
                          float rel_tol, float abs_tol) {
  if (got.size() != want.size()) return describe_size_mismatch(what, got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    // Written so that NaN fails the check.
    if (!(std::fabs(got[i] - want[i]) <= abs_tol + rel_tol * std::fabs(want[i]))) {
      return describe_mismatch(what, i, got[i], want[i]);
    }
  }
  return {};
}

template <typename T>
std::string compare_exact(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) return describe_size_mismatch(what, got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) return describe_mismatch(what, i, got[i], want[i]);
  }
  return {};
}

template std::string compare_exact<std::int32_t>(const char*, const std::vector<std::int32_t>&,
                                                 const std::vector<std::int32_t>&);
template std::string compare_exact<std::uint32_t>(const char*, const std::vector<std::uint32_t>&,
                                                  const std::vector<std::uint32_t>&);

}  // namespace bench

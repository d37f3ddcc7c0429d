// Result checks shared by the workloads: they return a description of the first mismatch, or "".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// |got - want| <= abs_tol + rel_tol * |want| for every element.
std::string compare_close(const char* what, const std::vector<float>& got, const std::vector<float>& want,
                          float rel_tol, float abs_tol);

template <typename T>
std::string compare_exact(const char* what, const std::vector<T>& got, const std::vector<T>& want);

extern template std::string compare_exact<std::int32_t>(const char*, const std::vector<std::int32_t>&,
                                                        const std::vector<std::int32_t>&);
extern template std::string compare_exact<std::uint32_t>(const char*, const std::vector<std::uint32_t>&,
                                                         const std::vector<std::uint32_t>&);

}  // namespace bench

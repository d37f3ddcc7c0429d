#pragma once
// Enum <-> keyword tables shared by option parsing, the report renderers and the JSON reader, so each
// enum's spelling is written down exactly once.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace barracuda {

template <typename Enum>
struct NamedValue {
  Enum value;
  std::string_view name;
};

template <typename Enum, std::size_t N>
constexpr std::string_view name_of(const std::array<NamedValue<Enum>, N>& table, Enum value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "unknown";
}

template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_of(const std::array<NamedValue<Enum>, N>& table, std::string_view name) {
  for (const auto& entry : table) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

}  // namespace barracuda

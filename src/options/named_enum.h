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

// The table of an enum whose values are 0 .. N-1, each spelled by `name` (a function kept beside the
// enum, as for the record's fields in barracuda/record_view.h).
template <typename Enum, std::size_t N, typename Name>
constexpr std::array<NamedValue<Enum>, N> dense_named_values(Name name) {
  std::array<NamedValue<Enum>, N> table{};
  for (std::size_t i = 0; i < N; ++i) table[i] = {static_cast<Enum>(i), name(static_cast<Enum>(i))};
  return table;
}

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

#pragma once
// One cell of the litmus matrix, named `TEST:VARIANT:PLACEMENT` (e.g. `MP:membar.cta:inter-block`) on the
// command line of `barracuda-litmus --detector-cell` and in the detector driver (litmus/detector.py).
// Host-only.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"

namespace litmus {

struct Cell {
  size_t test;     // index into kAllTests
  size_t variant;  // index into kVariants
  Placement placement;

  LitmusTest litmus_test() const { return kAllTests[test]; }
  const Variant& litmus_variant() const { return kVariants[variant]; }
};

inline std::string cell_name(const Cell& c) {
  std::string name(test_name(c.litmus_test()));
  name += ':';
  name += c.litmus_variant().name;
  name += ':';
  name += placement_name(c.placement);
  return name;
}

// Every cell, in the order of the results table (test, then variant, then placement).
inline std::vector<Cell> all_cells() {
  std::vector<Cell> cells;
  for (size_t t = 0; t < kAllTests.size(); ++t) {
    for (size_t v = 0; v < kVariants.size(); ++v) {
      for (Placement p : kAllPlacements) cells.push_back({t, v, p});
    }
  }
  return cells;
}

// The cell with exactly this name, or nothing. Variant names contain '.' and '-' but never ':'.
inline std::optional<Cell> parse_cell(std::string_view name) {
  for (const Cell& c : all_cells()) {
    if (cell_name(c) == name) return c;
  }
  return std::nullopt;
}

}  // namespace litmus

// libFuzzer target: the cubin line-table reader on arbitrary bytes must either succeed or throw
// FormatError / std::runtime_error (what libelf refuses), and what it returns must be sorted rows.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "fatbin/cubin_lines.h"
#include "fatbin/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace barracuda::fatbin;
  KernelLines lines;
  try {
    lines = read_cubin_lines(std::span(reinterpret_cast<const std::byte*>(data), size));
  } catch (const FormatError&) {
    return 0;
  } catch (const std::runtime_error&) {
    return 0;
  }
  for (const auto& [kernel, rows] : lines) {
    for (size_t i = 1; i < rows.size(); ++i) {
      if (rows[i].offset < rows[i - 1].offset) std::abort();
    }
    for (const SassLine& row : rows) {
      const SassLine* found = line_at(rows, row.offset);
      if (found != nullptr && found->offset != row.offset) std::abort();
    }
  }
  return 0;
}

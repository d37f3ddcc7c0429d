#pragma once
// Test support: parse PTX text or a file of tests/ptx/inputs and fail the test on parse errors.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ptx/parser.h"

namespace barracuda::ptx::testing {

inline std::unique_ptr<Module> parse_or_fail(std::string text) {
  ParseResult result = parse(std::move(text));
  EXPECT_TRUE(result) << result.error.to_string();
  return std::move(result.module);
}

inline std::string read_input(const std::string& name) {
  std::ifstream in(std::string(BARRACUDA_PTX_INPUTS_DIR) + "/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The body of `.entry test` wrapped in a minimal module.
inline std::string kernel_module(const std::string& body) {
  return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry test(.param .u64 p)\n{\n" + body + "\n}\n";
}

}  // namespace barracuda::ptx::testing

#pragma once
// Test support: compile PTX text with the CUDA toolkit's ptxas and compare the cubins it produces.
#include <string>
#include <string_view>

namespace barracuda::ptx::testing {

struct PtxasResult {
  bool ok = false;
  std::string cubin;  // the ELF bytes when ok
  std::string log;    // ptxas diagnostics
};

// Runs `ptxas -arch=<arch>` on `ptx` (files in a private temporary directory).
PtxasResult run_ptxas(std::string_view ptx, std::string_view arch);

// The target to compile a module for: its first `.target` word ("sm_90a"), "sm_90" if none.
std::string target_of(std::string_view ptx);

// Empty when the two cubins hold the same sections with the same bytes, ignoring the sections that
// record PTX line numbers or PTX text (.debug_*, .nv_debug_*, and their relocations), which differ
// whenever the PTX is laid out differently; otherwise a description of the first difference.
std::string compare_cubins(std::string_view expected, std::string_view actual);

// compare_cubins, also ignoring .note.nv.cuinfo, which records the PTX ISA and target the code was
// compiled from: for PTX rewritten to a newer ISA that must compile to the same code.
std::string compare_machine_code(std::string_view expected, std::string_view actual);

}  // namespace barracuda::ptx::testing

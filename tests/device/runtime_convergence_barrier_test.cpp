// The runtime's entry points are called from divergent application code: a warp's leaders log an
// atomic inside `if (lane == leader)` while the other lanes wait at the branch's reconvergence point.
// ptxas keeps that point's convergence barrier in B6 or above whenever the region holds a call (ours),
// the barrier registers its ABI makes callee-saved; a callee that uses one saves and clears it first
// (BMOV.32.CLEAR). Barrier registers belong to the warp, not the lane: clearing or reusing one while
// other lanes wait on it can let them go on before our lanes are back, into code ptxas compiled for a
// converged warp (a full-warp shfl of the leaders' atomic results in CUB's radix ranking). Read from
// the SASS, not measured alone: on the H200 the wrong CUB sort needed this and reserve()'s no-wait
// rule for partial groups together (device/runtime.cu). So the logging entry points keep to B0-B5.
//
// Decoded from the sm_90 instruction words (16 bytes each; the low 12 bits of the first word are the
// opcode), as cuobjdump prints them: BSSY 0x945, BSYNC 0x941, BREAK 0x942 name their barrier in bits
// 16-19; BMOV.32.CLEAR Rd, Bn (0x355) and BMOV.32 Bn, Rs (0x356) in bits 24-27; CALL.ABS.NOINC 0x943.
#include <gelf.h>
#include <gtest/gtest.h>
#include <libelf.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "device/runtime_ptx.h"

namespace barracuda {
namespace {

constexpr uint32_t kBssy = 0x945;
constexpr uint32_t kBsync = 0x941;
constexpr uint32_t kBreak = 0x942;
constexpr uint32_t kBmovFromBarrier = 0x355;
constexpr uint32_t kBmovToBarrier = 0x356;
constexpr uint32_t kCall = 0x943;  // CALL.ABS.NOINC (a call the linker resolves)
constexpr uint32_t kFirstCalleeSavedBarrier = 6;

struct BarrierUse {
  std::string function;
  uint64_t offset;
  uint32_t opcode;
  uint32_t barrier;
};

struct BarrierScan {
  size_t functions = 0;
  size_t bssy = 0;
  std::vector<BarrierUse> saves;              // BMOV to or from a barrier register
  std::vector<BarrierUse> callee_saved_uses;  // BSSY/BSYNC/BREAK on B6 or above
  std::vector<BarrierUse> calls;              // CALL.ABS.NOINC, by caller
};

BarrierScan scan_runtime_object() {
  BarrierScan scan;
  const std::string_view object = device_runtime_sm90_object();
  elf_version(EV_CURRENT);
  std::unique_ptr<Elf, decltype(&elf_end)> elf(
      elf_memory(const_cast<char*>(object.data()), object.size()), elf_end);
  if (!elf) {
    ADD_FAILURE() << "the runtime object is not ELF: " << elf_errmsg(-1);
    return scan;
  }
  size_t names = 0;
  elf_getshdrstrndx(elf.get(), &names);
  for (Elf_Scn* section = elf_nextscn(elf.get(), nullptr); section; section = elf_nextscn(elf.get(), section)) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || !(header.sh_flags & SHF_EXECINSTR)) continue;
    const char* name = elf_strptr(elf.get(), names, header.sh_name);
    Elf_Data* data = elf_getdata(section, nullptr);
    if (!data || !data->d_buf) continue;
    ++scan.functions;
    const auto* bytes = static_cast<const unsigned char*>(data->d_buf);
    for (size_t at = 0; at + 16 <= data->d_size; at += 16) {
      uint64_t word = 0;
      std::memcpy(&word, bytes + at, sizeof word);
      const auto opcode = static_cast<uint32_t>(word & 0xfff);
      const BarrierUse use{name ? name : "?", at, opcode, static_cast<uint32_t>(word >> 16 & 0xf)};
      if (opcode == kCall) {
        scan.calls.push_back(use);
      } else if (opcode == kBmovFromBarrier) {
        scan.saves.push_back({use.function, at, opcode, static_cast<uint32_t>(word >> 24 & 0xf)});
      } else if (opcode == kBmovToBarrier) {
        scan.saves.push_back({use.function, at, opcode, static_cast<uint32_t>(word >> 24 & 0xf)});
      } else if (opcode == kBssy || opcode == kBsync || opcode == kBreak) {
        scan.bssy += opcode == kBssy;
        if (use.barrier >= kFirstCalleeSavedBarrier) scan.callee_saved_uses.push_back(use);
      }
    }
  }
  return scan;
}

std::string describe(const std::vector<BarrierUse>& uses) {
  std::string text;
  for (const BarrierUse& use : uses) {
    char line[64];
    std::snprintf(line, sizeof line, " +0x%llx opcode 0x%x B%u\n", static_cast<unsigned long long>(use.offset),
                  use.opcode, use.barrier);
    text += "  " + use.function + line;
  }
  return text;
}

TEST(RuntimeConvergenceBarriers, TheScanFindsTheRuntimesReconvergencePoints) {
  const BarrierScan scan = scan_runtime_object();
  EXPECT_GE(scan.functions, 9u);  // the entry points at least
  EXPECT_GE(scan.bssy, 50u) << "the decoder no longer recognises BSSY: the instruction encoding changed";
}

// The entry points instrumented code calls anywhere, divergent code included. (Not
// __barracuda_shared_check_begin: it runs once at kernel entry, where every warp is converged.)
bool is_logging_entry_point(const std::string& section) {
  return section.starts_with(".text.__barracuda_log_") || section == ".text.__barracuda_shared_check_end";
}

// The device checks (check_shared_lanes, check_global_lanes and what they call: check_shared_word,
// check_shared_read_lanes, check_global_word, check_global_word_lanes, check_global_after,
// send_global_race(s)) still save
// B6-B11: they run only in launches whose memory the device checks, and a divergent checked access
// there is the open hazard README's Known problems names. Any other function appearing here fails.
bool is_known_device_check(const std::string& section) {
  return section.find("check_shared_") != std::string::npos ||
         section.find("check_global_") != std::string::npos ||
         section.find("send_global_race") != std::string::npos;
}

std::vector<BarrierUse> offenders(const BarrierScan& scan, bool (*exempt)(const std::string&)) {
  std::vector<BarrierUse> found;
  for (const auto* uses : {&scan.saves, &scan.callee_saved_uses}) {
    for (const BarrierUse& use : *uses) {
      if (!exempt(use.function)) found.push_back(use);
    }
  }
  return found;
}

TEST(RuntimeConvergenceBarriers, LoggingEntryPointsKeepToCallerSavedBarriers) {
  const BarrierScan scan = scan_runtime_object();
  size_t calls_from_entry_points = 0;
  for (const BarrierUse& use : offenders(scan, [](const std::string&) { return false; })) {
    EXPECT_FALSE(is_logging_entry_point(use.function)) << "callee-saved barrier:\n" << describe({use});
  }
  for (const BarrierUse& call : scan.calls) calls_from_entry_points += is_logging_entry_point(call.function);
  EXPECT_GE(calls_from_entry_points, 2u) << "log_access calls the device checks: the scan must see its calls";
}

TEST(RuntimeConvergenceBarriers, OnlyTheDeviceChecksAndKernelEntryUseCalleeSavedBarriers) {
  const BarrierScan scan = scan_runtime_object();
  const auto exempt = [](const std::string& section) {
    return is_known_device_check(section) || section == ".text.__barracuda_shared_check_begin";
  };
  const std::vector<BarrierUse> found = offenders(scan, exempt);
  EXPECT_TRUE(found.empty()) << "callee-saved barriers outside the known device checks:\n" << describe(found);
}

// Calls from a logging entry point are where a callee-saved barrier comes from: only log_access calls,
// the device checks, behind a vote every lane takes alike (a 64-bit division would be a call too).
TEST(RuntimeConvergenceBarriers, OnlyLogAccessCallsFromTheLoggingPath) {
  const BarrierScan scan = scan_runtime_object();
  for (const BarrierUse& call : scan.calls) {
    if (!is_logging_entry_point(call.function)) continue;
    EXPECT_EQ(call.function, ".text.__barracuda_log_access") << describe({call});
  }
}

}  // namespace
}  // namespace barracuda

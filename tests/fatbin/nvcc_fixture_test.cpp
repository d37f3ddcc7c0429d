// Reads binaries nvcc 13 built from fixtures/*.cu at build time (tests/fatbin/CMakeLists.txt) and checks
// every entry against what nvcc was asked for, and every PTX against `nvcc -ptx` of the same source.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fatbin/elf_file.h"
#include "fatbin/format.h"
#include "fatbin/ptx_scan.h"
#include "fatbin/writer.h"
#include "expect_same_entry.h"

namespace barracuda::fatbin {
namespace {

const std::string kFixtures = BARRACUDA_NVCC_FIXTURES;

struct ExpectedEntry {
  EntryKind kind;
  std::uint32_t arch;
  Compression compression;
  const char* reference_ptx = nullptr;  // file in kFixtures the PTX must match
  std::uint64_t target_flags = 0;       // arch-/family-specific and compat-block bits
};

constexpr std::uint64_t kTargetFlags = flag::kArchSpecific | flag::kFamilySpecific | flag::kCubinCompatBlock;

struct ExpectedContainer {
  const char* section;
  std::vector<ExpectedEntry> entries;
};

struct Variant {
  const char* binary;
  std::vector<ExpectedContainer> containers;  // the device-link stub of non-rdc builds is checked apart
  bool debug = false;
  const char* options_contain = "";
  bool link_stub = true;  // nvcc 13 runs nvlink on every non-rdc executable
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error("cannot read " + path);
  return text.str();
}

// nvcc strips comments and indentation from the PTX it embeds: compare modulo those, and modulo
// whitespace runs (tabs become spaces), line by line.
std::string normalise_ptx(std::string_view ptx) {
  std::string out;
  bool in_block_comment = false;
  std::istringstream lines{std::string(ptx)};
  for (std::string line; std::getline(lines, line);) {
    std::string kept;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (in_block_comment) {
        if (line.compare(i, 2, "*/") == 0) in_block_comment = false, ++i;
      } else if (line.compare(i, 2, "/*") == 0) {
        in_block_comment = true, ++i;
      } else if (line.compare(i, 2, "//") == 0) {
        break;
      } else if (std::isspace(static_cast<unsigned char>(line[i]))) {
        if (!kept.empty() && kept.back() != ' ') kept += ' ';
      } else {
        kept += line[i];
      }
    }
    while (!kept.empty() && kept.back() == ' ') kept.pop_back();
    if (!kept.empty()) out += kept + "\n";
  }
  return out;
}

constexpr auto kPtx = EntryKind::Ptx;
constexpr auto kCubin = EntryKind::Cubin;
constexpr auto kNone = Compression::None;
constexpr auto kZstd = Compression::Zstd;

std::vector<ExpectedContainer> sm90(Compression cubin, Compression ptx, const char* reference = "kernels.compute_90.ptx") {
  return {{kFatbinSection, {{kCubin, 90, cubin}, {kPtx, 90, ptx, reference}}}};
}

const std::vector<Variant>& variants() {
  static const std::vector<Variant> all{
      {"default", sm90(kNone, kZstd)},
      {"speed", sm90(kNone, Compression::Lz4Block)},
      {"size", sm90(kZstd, kZstd)},
      {"none", sm90(kNone, kNone)},
      {"compress_all", sm90(kZstd, kZstd)},
      {"debug", sm90(kZstd, kZstd, "kernels.debug.compute_90.ptx"), true, "-g --dont-merge-basicblocks --return-at-end"},
      {"lineinfo", sm90(kNone, kZstd, "kernels.lineinfo.compute_90.ptx"), false, "--generate-line-info"},
      {"cudart_shared", sm90(kNone, kZstd)},
      {"cudart_static", sm90(kNone, kZstd)},
      {"multi",
       {{kFatbinSection,
         {{kPtx, 80, kZstd, "kernels.compute_80.ptx"}, {kCubin, 90, kNone}, {kPtx, 90, kZstd, "kernels.compute_90.ptx"}}}}},
      {"arch_specific",
       {{kFatbinSection,
         {{kCubin, 100, kNone, nullptr, flag::kFamilySpecific | flag::kCubinCompatBlock},
          {kPtx, 90, kZstd, "kernels.compute_90a.ptx", flag::kArchSpecific}}}}},
      {"rdc",
       {{kFatbinSection, {{kCubin, 90, kNone}}},
        {kPrelinkedSection, {{kCubin, 90, kZstd}, {kPtx, 90, kZstd, "rdc_main.compute_90.ptx"}}},
        {kPrelinkedSection, {{kCubin, 90, kZstd}, {kPtx, 90, kZstd, "rdc_helper.compute_90.ptx"}}}},
       false,
       "--compile-only",
       false},
      {"lto.o",
       {{kPrelinkedSection, {{kPtx, 90, kZstd, "rdc_helper.compute_90.ptx"}, {EntryKind::LtoIr, 90, kZstd}}}},
       false,
       "--compile-only",
       false},
  };
  return all;
}

void PrintTo(const Variant& variant, std::ostream* out) { *out << variant.binary; }

class NvccVariant : public ::testing::TestWithParam<Variant> {};

// Flattens sections into (section name, container) pairs in file order.
std::vector<std::pair<std::string, const Container*>> containers_of(const std::vector<FatbinSection>& sections) {
  std::vector<std::pair<std::string, const Container*>> all;
  for (const auto& section : sections) {
    for (const auto& container : section.containers) all.emplace_back(section.name, &container);
  }
  return all;
}

TEST_P(NvccVariant, EntriesAreWhatNvccWasAskedFor) {
  const Variant& variant = GetParam();
  auto sections = read_elf_file(kFixtures + "/" + variant.binary);
  auto containers = containers_of(sections);
  if (variant.link_stub) {
    // nvcc 13 runs nvlink even without -rdc: a cubin-only device-link stub comes first.
    ASSERT_GE(containers.size(), 1u);
    ASSERT_EQ(containers[0].second->entries.size(), 1u);
    EXPECT_EQ(containers[0].second->entries[0].kind, kCubin);
    containers.erase(containers.begin());
  }
  ASSERT_EQ(containers.size(), variant.containers.size());
  for (std::size_t c = 0; c < containers.size(); ++c) {
    const auto& expected = variant.containers[c];
    const auto& [section, container] = containers[c];
    EXPECT_EQ(section, expected.section);
    ASSERT_EQ(container->entries.size(), expected.entries.size()) << "container " << c;
    for (std::size_t e = 0; e < expected.entries.size(); ++e) {
      SCOPED_TRACE("container " + std::to_string(c) + " entry " + std::to_string(e));
      const Entry& entry = container->entries[e];
      const ExpectedEntry& want = expected.entries[e];
      EXPECT_EQ(entry.kind, want.kind);
      EXPECT_EQ(entry.arch, SmArch{want.arch});
      EXPECT_EQ(entry.compression, want.compression);
      EXPECT_EQ(entry.flags & (flag::k64Bit | flag::kHostLinux), flag::k64Bit | flag::kHostLinux);
      EXPECT_EQ((entry.flags & flag::kDebug) != 0, variant.debug);
      EXPECT_EQ(entry.flags & kTargetFlags, want.target_flags);
      if (want.kind == EntryKind::LtoIr) {
        EXPECT_EQ(entry.flags & flag::kLtoIr, flag::kLtoIr);
        EXPECT_EQ(entry.payload.size(), entry.stored_size);  // reported, not decoded
        continue;
      }
      if (want.kind == kCubin) {
        EXPECT_EQ(entry.version, (IsaVersion{1, 8}));
        ASSERT_GE(entry.payload.size(), 4u);
        EXPECT_EQ(entry.payload[1], std::byte{'E'});
        continue;
      }
      auto reference = read_text(kFixtures + "/" + want.reference_ptx);
      EXPECT_EQ(entry.version, ptx_isa_version(reference));
      EXPECT_EQ(normalise_ptx(entry.text()), normalise_ptx(reference));
      EXPECT_EQ(entry.text().find('\0'), std::string_view::npos);
      EXPECT_NE(entry.ptxas_options.find(variant.options_contain), std::string::npos) << entry.ptxas_options;
      EXPECT_EQ(ptx_kernels(entry.text()), ptx_kernels(reference));
    }
  }
}

TEST_P(NvccVariant, RewritingEveryContainerGivesTheSameEntries) {
  for (const auto& section : read_elf_file(kFixtures + "/" + GetParam().binary)) {
    for (const auto& container : section.containers) {
      auto reread = read_container(ByteView(write_container(container.entries)));
      ASSERT_EQ(reread.entries.size(), container.entries.size());
      for (std::size_t e = 0; e < container.entries.size(); ++e) {
        testing::expect_same_entry(reread.entries[e], container.entries[e]);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fatbin, NvccVariant, ::testing::ValuesIn(variants()),
                         [](const auto& param_info) {
                           std::string name = param_info.param.binary;
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

TEST(BareFatbinFile, ReadsAsOneWholeFileSection) {
  std::vector<std::pair<SectionInfo, Container>> seen;
  for_each_file_container(kFixtures + "/kernels.fatbin", [&](const SectionInfo& section, Container&& container) {
    seen.emplace_back(section, std::move(container));
  });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].first.name, kWholeFileSection);
  const auto& entries = seen[0].second.entries;
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].kind, kCubin);
  EXPECT_EQ(entries[1].kind, kPtx);
  EXPECT_EQ(normalise_ptx(entries[1].text()), normalise_ptx(read_text(kFixtures + "/kernels.compute_90.ptx")));
}

TEST(BareFatbinFile, ElfFilesStillReadThroughTheirSections) {
  std::size_t containers = 0;
  for_each_file_container(kFixtures + "/default", [&](const SectionInfo& section, Container&&) {
    EXPECT_EQ(section.name, kFatbinSection);
    ++containers;
  });
  EXPECT_EQ(containers, 2u);
}

TEST(NormalisePtx, DropsCommentsIndentationAndBlankLines) {
  EXPECT_EQ(normalise_ptx("//\n// Generated\n\n\t.version 9.0 // trailing\n  ld.u32 \t%r1, [a]; /* x\n y */ ret;\n"),
            ".version 9.0\nld.u32 %r1, [a];\nret;\n");
}

}  // namespace
}  // namespace barracuda::fatbin

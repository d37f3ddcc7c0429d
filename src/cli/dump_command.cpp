// `barracuda dump BINARY`: the fat binaries inside an ELF file, cuobjdump-style. Containers are
// streamed, so memory stays at one container's payloads even for libcublasLt.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.h"
#include "fatbin/elf_file.h"
#include "fatbin/error.h"
#include "fatbin/ptx_scan.h"

namespace barracuda::cli {
namespace {

namespace fb = barracuda::fatbin;

struct DumpOptions {
  std::string binary;
  std::string extract_ptx_dir;
  bool json = false;
};

// Options blocks of sm_100+ cubins are binary: show those as a size, text as text.
std::string printable_options(const std::string& options) {
  for (unsigned char c : options) {
    if (c < 0x20 && c != '\t') return "<" + std::to_string(options.size()) + " bytes, binary>";
  }
  return options;
}

std::string version_text(const fb::Entry& entry) {
  return std::to_string(entry.version.major) + "." + std::to_string(entry.version.minor);
}

// LTO-IR stays as stored: its size after decoding is only known from the header.
std::uint64_t decoded_size(const fb::Entry& entry) {
  return entry.kind == fb::EntryKind::LtoIr && entry.compression != fb::Compression::None ? entry.opaque.decompressed_size
                                                                                         : entry.payload.size();
}

nlohmann::json entry_json(const fb::Entry& entry) {
  nlohmann::json json{
      {"offset", entry.offset},
      {"kind", fb::to_string(entry.kind)},
      {"arch", fb::arch_name(entry)},
      {"sm", entry.arch.value},
      {"version", version_text(entry)},
      {"flags", entry.flags},
      {"flag_names", fb::flag_names(entry.flags)},
      {"compression", fb::to_string(entry.compression)},
      {"stored_size", entry.stored_size},
      {"size", decoded_size(entry)},
      {"decoded", entry.kind != fb::EntryKind::LtoIr},
      {"name", entry.name},
      {"ptxas_options", printable_options(entry.ptxas_options)},
  };
  if (entry.kind == fb::EntryKind::Ptx) json["kernels"] = fb::ptx_kernels(entry.text());
  return json;
}

void print_entry(std::size_t index, const fb::Entry& entry) {
  std::string flags;
  for (const auto& name : fb::flag_names(entry.flags)) flags += (flags.empty() ? "" : ",") + name;
  std::printf("    entry %zu at +%s: %s %s, version %s, %llu bytes stored (%s), %llu bytes%s, flags %s [%s]\n", index,
              fb::hex(entry.offset).c_str(), std::string(fb::to_string(entry.kind)).c_str(), fb::arch_name(entry).c_str(),
              version_text(entry).c_str(), static_cast<unsigned long long>(entry.stored_size),
              std::string(fb::to_string(entry.compression)).c_str(), static_cast<unsigned long long>(decoded_size(entry)),
              entry.kind == fb::EntryKind::LtoIr ? " (not decoded)" : "", fb::hex(entry.flags).c_str(), flags.c_str());
  if (!entry.name.empty()) std::printf("      name: %s\n", entry.name.c_str());
  if (!entry.ptxas_options.empty()) std::printf("      ptxas options: \"%s\"\n", printable_options(entry.ptxas_options).c_str());
  if (entry.kind == fb::EntryKind::Ptx) {
    for (const auto& kernel : fb::ptx_kernels(entry.text())) std::printf("      kernel: %s\n", kernel.c_str());
  }
}

// Receives the containers in file order and prints (or collects the JSON of) each one.
class Dumper {
 public:
  explicit Dumper(const DumpOptions& options) : options_(options) {
    if (!options.extract_ptx_dir.empty()) std::filesystem::create_directories(options.extract_ptx_dir);
  }

  void add(const fb::SectionInfo& section, const fb::Container& container) {
    if (sections_ == 0 || section.name != section_.name || section.file_offset != section_.file_offset) {
      start_section(section);
    }
    if (!options_.json) {
      std::printf("  container %zu at +%s: %llu bytes, %zu entries\n", container_in_section_, fb::hex(container.offset).c_str(),
                  static_cast<unsigned long long>(container.size), container.entries.size());
    }
    nlohmann::json entries = nlohmann::json::array();
    for (std::size_t e = 0; e < container.entries.size(); ++e) {
      const auto& entry = container.entries[e];
      if (options_.json) {
        entries.push_back(entry_json(entry));
      } else {
        print_entry(e, entry);
      }
      if (entry.kind == fb::EntryKind::Ptx && !options_.extract_ptx_dir.empty()) extract(e, entry);
    }
    if (options_.json) {
      json_.back()["containers"].push_back({{"offset", container.offset}, {"size", container.size}, {"entries", std::move(entries)}});
    }
    ++container_in_section_;
    ++containers_;
    entries_ += container.entries.size();
  }

  void finish(double seconds) {
    if (options_.json) {
      std::cout << nlohmann::json{{"binary", options_.binary}, {"sections", std::move(json_)}}.dump(2) << "\n";
    } else {
      std::printf("%s: %zu sections, %zu containers, %zu entries (%.2f s)\n", options_.binary.c_str(), sections_,
                  containers_, entries_, seconds);
    }
  }

 private:
  void start_section(const fb::SectionInfo& section) {
    section_ = section;
    container_in_section_ = 0;
    ++sections_;
    if (options_.json) {
      json_.push_back({{"name", section.name}, {"file_offset", section.file_offset}, {"containers", nlohmann::json::array()}});
    } else {
      std::printf("section %s (file offset %s)\n", section.name.c_str(), fb::hex(section.file_offset).c_str());
    }
  }

  // Stable across runs: binary, section, container and entry index, arch.
  void extract(std::size_t entry_index, const fb::Entry& entry) const {
    std::string section = section_.name.starts_with('.') ? section_.name.substr(1) : section_.name;
    auto name = std::filesystem::path(options_.binary).filename().string() + "." + section + "." +
                std::to_string(container_in_section_) + "." + std::to_string(entry_index) + "." + fb::arch_name(entry) + ".ptx";
    auto path = std::filesystem::path(options_.extract_ptx_dir) / name;
    std::ofstream out(path, std::ios::binary);
    out << entry.text();
    if (!out) throw std::runtime_error(path.string() + ": cannot write");
  }

  const DumpOptions& options_;
  fb::SectionInfo section_;
  std::size_t container_in_section_ = 0;
  std::size_t sections_ = 0;
  std::size_t containers_ = 0;
  std::size_t entries_ = 0;
  nlohmann::json json_ = nlohmann::json::array();
};

int run_dump(const DumpOptions& options) {
  auto start = std::chrono::steady_clock::now();
  try {
    Dumper dumper(options);
    fb::for_each_file_container(options.binary, [&](const fb::SectionInfo& section, fb::Container&& container) {
      dumper.add(section, container);
    });
    dumper.finish(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const fb::FormatError& error) {
    std::fflush(stdout);
    std::fprintf(stderr, "barracuda dump: %s: malformed fat binary: %s\n", options.binary.c_str(), error.what());
    return 1;
  } catch (const std::exception& error) {
    std::fflush(stdout);
    std::fprintf(stderr, "barracuda dump: %s\n", error.what());
    return 1;
  }
  return 0;
}

}  // namespace

void add_dump_command(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<DumpOptions>();
  auto* dump = app.add_subcommand("dump", "List the fat binaries, entries and kernels of an ELF executable, library or object, or of a .fatbin file");
  dump->add_option("binary", options->binary, "Executable, shared library, object or nvcc -fatbin file")->required()->check(CLI::ExistingFile);
  dump->add_option("--extract-ptx", options->extract_ptx_dir, "Write each PTX entry to DIR/<binary>.<section>.<container>.<entry>.<arch>.ptx");
  dump->add_flag("--json", options->json, "Print JSON instead of text");
  dump->callback([options, &result] { result.exit_code = run_dump(*options); });
}

}  // namespace barracuda::cli

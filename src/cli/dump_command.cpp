// `barracuda dump BINARY`: the fat binaries inside an ELF file, cuobjdump-style.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
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

// Stable across runs of the same binary: section, container index, entry index and arch.
std::string ptx_file_name(const std::string& binary, const fb::FatbinSection& section, std::size_t container,
                          std::size_t entry, const fb::Entry& ptx) {
  std::string section_name = section.name;
  if (section_name.starts_with('.')) section_name.erase(0, 1);
  return std::filesystem::path(binary).filename().string() + "." + section_name + "." + std::to_string(container) +
         "." + std::to_string(entry) + "." + fb::arch_name(ptx) + ".ptx";
}

// Options blocks of sm_100+ cubins are binary: show those as a size, text as text.
std::string printable_options(const std::string& options) {
  for (unsigned char c : options) {
    if (c < 0x20 && c != '\t') return "<" + std::to_string(options.size()) + " bytes, binary>";
  }
  return options;
}

nlohmann::json entry_json(const fb::Entry& entry) {
  nlohmann::json json{
      {"offset", entry.offset},
      {"kind", fb::to_string(entry.kind)},
      {"arch", fb::arch_name(entry)},
      {"sm", entry.arch.value},
      {"version", std::to_string(entry.version.major) + "." + std::to_string(entry.version.minor)},
      {"flags", entry.flags},
      {"flag_names", fb::flag_names(entry.flags)},
      {"compression", fb::to_string(entry.compression)},
      {"stored_size", entry.stored_size},
      {"size", entry.payload.size()},
      {"name", entry.name},
      {"ptxas_options", printable_options(entry.ptxas_options)},
  };
  if (entry.kind == fb::EntryKind::Ptx) json["kernels"] = fb::ptx_kernels(entry.text());
  return json;
}

void print_entry(std::size_t index, const fb::Entry& entry) {
  std::string flags;
  for (const auto& name : fb::flag_names(entry.flags)) flags += (flags.empty() ? "" : ",") + name;
  std::printf("    entry %zu at +%s: %s %s, version %u.%u, %llu bytes stored (%s), %zu bytes, flags %s [%s]\n", index,
              fb::hex(entry.offset).c_str(), std::string(fb::to_string(entry.kind)).c_str(), fb::arch_name(entry).c_str(),
              entry.version.major, entry.version.minor, static_cast<unsigned long long>(entry.stored_size),
              std::string(fb::to_string(entry.compression)).c_str(), entry.payload.size(), fb::hex(entry.flags).c_str(),
              flags.c_str());
  if (!entry.name.empty()) std::printf("      name: %s\n", entry.name.c_str());
  if (!entry.ptxas_options.empty()) std::printf("      ptxas options: \"%s\"\n", printable_options(entry.ptxas_options).c_str());
  if (entry.kind == fb::EntryKind::Ptx) {
    for (const auto& kernel : fb::ptx_kernels(entry.text())) std::printf("      kernel: %s\n", kernel.c_str());
  }
}

void extract_ptx(const DumpOptions& options, const std::vector<fb::FatbinSection>& sections) {
  std::filesystem::create_directories(options.extract_ptx_dir);
  for (const auto& section : sections) {
    for (std::size_t c = 0; c < section.containers.size(); ++c) {
      const auto& entries = section.containers[c].entries;
      for (std::size_t e = 0; e < entries.size(); ++e) {
        if (entries[e].kind != fb::EntryKind::Ptx) continue;
        auto path = std::filesystem::path(options.extract_ptx_dir) / ptx_file_name(options.binary, section, c, e, entries[e]);
        std::ofstream out(path, std::ios::binary);
        out << entries[e].text();
        if (!out) throw std::runtime_error(path.string() + ": cannot write");
      }
    }
  }
}

int run_dump(const DumpOptions& options) {
  auto start = std::chrono::steady_clock::now();
  std::vector<fb::FatbinSection> sections;
  try {
    sections = fb::read_elf_file(options.binary);
  } catch (const fb::FormatError& error) {
    std::fprintf(stderr, "barracuda dump: %s: malformed fat binary: %s\n", options.binary.c_str(), error.what());
    return 1;
  } catch (const std::runtime_error& error) {
    std::fprintf(stderr, "barracuda dump: %s\n", error.what());
    return 1;
  }
  std::size_t containers = 0;
  std::size_t entries = 0;
  nlohmann::json json_sections = nlohmann::json::array();
  for (const auto& section : sections) {
    if (!options.json) std::printf("section %s (file offset %s)\n", section.name.c_str(), fb::hex(section.file_offset).c_str());
    nlohmann::json json_containers = nlohmann::json::array();
    for (std::size_t c = 0; c < section.containers.size(); ++c) {
      const auto& container = section.containers[c];
      if (!options.json) {
        std::printf("  container %zu at +%s: %llu bytes, %zu entries\n", c, fb::hex(container.offset).c_str(),
                    static_cast<unsigned long long>(container.size), container.entries.size());
      }
      nlohmann::json json_entries = nlohmann::json::array();
      for (std::size_t e = 0; e < container.entries.size(); ++e) {
        if (options.json) {
          json_entries.push_back(entry_json(container.entries[e]));
        } else {
          print_entry(e, container.entries[e]);
        }
      }
      json_containers.push_back({{"offset", container.offset}, {"size", container.size}, {"entries", std::move(json_entries)}});
      ++containers;
      entries += container.entries.size();
    }
    json_sections.push_back({{"name", section.name}, {"file_offset", section.file_offset}, {"containers", std::move(json_containers)}});
  }
  if (!options.extract_ptx_dir.empty()) extract_ptx(options, sections);
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options.json) {
    std::cout << nlohmann::json{{"binary", options.binary}, {"sections", std::move(json_sections)}}.dump(2) << "\n";
  } else {
    std::printf("%s: %zu sections, %zu containers, %zu entries (%.2f s)\n", options.binary.c_str(), sections.size(),
                containers, entries, seconds);
  }
  return 0;
}

}  // namespace

void add_dump_command(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<DumpOptions>();
  auto* dump = app.add_subcommand("dump", "List the fat binaries, entries and kernels of an ELF executable or library");
  dump->add_option("binary", options->binary, "Executable, shared library or object file")->required()->check(CLI::ExistingFile);
  dump->add_option("--extract-ptx", options->extract_ptx_dir, "Write each PTX entry to a file in this directory");
  dump->add_flag("--json", options->json, "Print JSON instead of text");
  dump->callback([options, &result] { result.exit_code = run_dump(*options); });
}

}  // namespace barracuda::cli

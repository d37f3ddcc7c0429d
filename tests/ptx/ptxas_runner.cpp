#include "ptxas_runner.h"

#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace barracuda::ptx::testing {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool records_ptx_layout(std::string_view section) {
  for (std::string_view prefix : {".debug", ".nv_debug", ".rela.debug", ".rela.nv_debug", ".rel.debug"})
    if (section.starts_with(prefix)) return true;
  return false;
}

struct Section {
  uint32_t type = 0;
  uint64_t flags = 0;
  std::string bytes;
};

// Section name -> contents; nullopt-like empty map with `error` set when the bytes are not ELF.
std::map<std::string, Section> sections_of(std::string_view image, std::string& error) {
  std::map<std::string, Section> sections;
  elf_version(EV_CURRENT);
  Elf* elf = elf_memory(const_cast<char*>(image.data()), image.size());
  size_t names = 0;
  if (!elf || elf_getshdrstrndx(elf, &names) != 0) {
    error = "not an ELF image";
    if (elf) elf_end(elf);
    return sections;
  }
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr header;
    if (!gelf_getshdr(scn, &header)) continue;
    const char* name = elf_strptr(elf, names, header.sh_name);
    if (!name || records_ptx_layout(name)) continue;
    Section section{header.sh_type, header.sh_flags, {}};
    if (header.sh_type != SHT_NOBITS)
      if (Elf_Data* data = elf_rawdata(scn, nullptr); data && data->d_buf)
        section.bytes.assign(static_cast<const char*>(data->d_buf), data->d_size);
    sections[name] = std::move(section);
  }
  elf_end(elf);
  return sections;
}

// compare_cubins, also ignoring the section named `ignored` (when not empty).
std::string compare_cubins_except(std::string_view expected, std::string_view actual, std::string_view ignored) {
  std::string error;
  auto want = sections_of(expected, error);
  auto got = sections_of(actual, error);
  if (!error.empty()) return error;
  if (!ignored.empty()) {
    want.erase(std::string(ignored));
    got.erase(std::string(ignored));
  }
  for (const auto& [name, section] : want) {
    auto match = got.find(name);
    if (match == got.end()) return "section " + name + " is missing";
    if (match->second.type != section.type || match->second.flags != section.flags)
      return "section " + name + " has a different type or flags";
    if (match->second.bytes != section.bytes) return "section " + name + " has different contents";
  }
  if (got.size() != want.size()) return "the round-tripped cubin has extra sections";
  return {};
}

}  // namespace

PtxasResult run_ptxas(std::string_view ptx, std::string_view arch) {
  static std::atomic<int> counter{0};
  auto dir = std::filesystem::temp_directory_path() /
             ("barracuda-ptxas-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "in.ptx", std::ios::binary) << ptx;
  std::string command = std::string(BARRACUDA_PTXAS) + " -arch=" + std::string(arch) + " " +
                        (dir / "in.ptx").string() + " -o " + (dir / "out.cubin").string() + " > " +
                        (dir / "log").string() + " 2>&1";
  PtxasResult result;
  result.ok = std::system(command.c_str()) == 0;
  result.log = read_file(dir / "log");
  if (result.ok) result.cubin = read_file(dir / "out.cubin");
  std::filesystem::remove_all(dir);
  return result;
}

std::string target_of(std::string_view ptx) {
  size_t at = ptx.find(".target");
  if (at == std::string_view::npos) return "sm_90";
  size_t begin = ptx.find_first_not_of(" \t", at + 7);
  size_t end = ptx.find_first_of(" \t\r\n,", begin);
  return std::string(ptx.substr(begin, end - begin));
}

std::string compare_cubins(std::string_view expected, std::string_view actual) {
  return compare_cubins_except(expected, actual, {});
}

std::string compare_machine_code(std::string_view expected, std::string_view actual) {
  return compare_cubins_except(expected, actual, ".note.nv.cuinfo");
}

}  // namespace barracuda::ptx::testing

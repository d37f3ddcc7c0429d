#include "fatbin/elf_file.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <span>
#include <stdexcept>

#include "fatbin/byte_view.h"
#include "fatbin/format.h"

namespace barracuda::fatbin {
namespace {

class FileDescriptor {
 public:
  explicit FileDescriptor(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw std::runtime_error(path.string() + ": " + std::strerror(errno));
  }
  ~FileDescriptor() { ::close(fd_); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

[[noreturn]] void fail_elf(const std::filesystem::path& path, const char* what) {
  throw std::runtime_error(path.string() + ": " + what + ": " + elf_errmsg(-1));
}

std::vector<std::byte> read_whole_file(const std::filesystem::path& path) {
  std::vector<std::byte> bytes(std::filesystem::file_size(path));
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw std::runtime_error(path.string() + ": read error");
  return bytes;
}

// The file's first four bytes, or empty when it is shorter.
std::string file_magic(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string magic(4, '\0');
  in.read(magic.data(), static_cast<std::streamsize>(magic.size()));
  if (!in) return {};
  return magic;
}

bool is_fatbin_section(const char* name) {
  return name != nullptr && (std::strcmp(name, kFatbinSection) == 0 || std::strcmp(name, kPrelinkedSection) == 0);
}

}  // namespace

void for_each_elf_container(const std::filesystem::path& path, const SectionContainerVisitor& visit) {
  if (elf_version(EV_CURRENT) == EV_NONE) fail_elf(path, "libelf initialisation");
  FileDescriptor file(path);
  std::unique_ptr<Elf, decltype(&elf_end)> elf(elf_begin(file.get(), ELF_C_READ_MMAP, nullptr), elf_end);
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF) throw std::runtime_error(path.string() + ": not an ELF file");
  std::size_t names_index = 0;
  if (elf_getshdrstrndx(elf.get(), &names_index) != 0) fail_elf(path, "section names");

  for (Elf_Scn* scn = elf_nextscn(elf.get(), nullptr); scn != nullptr; scn = elf_nextscn(elf.get(), scn)) {
    GElf_Shdr header;
    if (gelf_getshdr(scn, &header) == nullptr) fail_elf(path, "section header");
    const char* name = elf_strptr(elf.get(), names_index, header.sh_name);
    if (!is_fatbin_section(name) || header.sh_type == SHT_NOBITS) continue;
    Elf_Data* data = elf_rawdata(scn, nullptr);
    if (data == nullptr) fail_elf(path, name);
    std::span<const std::byte> bytes(static_cast<const std::byte*>(data->d_buf), data->d_size);
    SectionInfo section{name, header.sh_offset};
    for_each_container(ByteView(bytes), [&](Container&& container) { visit(section, std::move(container)); });
  }
}

std::vector<FatbinSection> read_elf_file(const std::filesystem::path& path) {
  std::vector<FatbinSection> sections;
  for_each_elf_container(path, [&](const SectionInfo& section, Container&& container) {
    if (sections.empty() || sections.back().name != section.name || sections.back().file_offset != section.file_offset) {
      sections.push_back({section, {}});
    }
    sections.back().containers.push_back(std::move(container));
  });
  return sections;
}

void for_each_file_container(const std::filesystem::path& path, const SectionContainerVisitor& visit) {
  auto magic = file_magic(path);
  if (magic == std::string_view(ELFMAG, SELFMAG)) {
    for_each_elf_container(path, visit);
    return;
  }
  if (magic.size() != sizeof kContainerMagic || std::memcmp(magic.data(), &kContainerMagic, sizeof kContainerMagic) != 0) {
    throw std::runtime_error(path.string() + ": neither an ELF file nor a fat binary");
  }
  auto bytes = read_whole_file(path);
  SectionInfo whole_file{kWholeFileSection, 0};
  for_each_container(ByteView(bytes), [&](Container&& container) { visit(whole_file, std::move(container)); });
}

}  // namespace barracuda::fatbin

// read_image on the wrapper records of an nvcc-built shared library loaded into this process: the
// pointers cudart hands to cuLibraryLoadData. Loading needs no GPU; registration only records them.
#include <dlfcn.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>

#include <fcntl.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "expect_same_entry.h"
#include "fatbin/elf_file.h"
#include "fatbin/format.h"
#include "fatbin/image.h"
#include "fatbin/ptx_scan.h"
#include "fatbin/ptx_select.h"

namespace barracuda::fatbin {
namespace {

const std::string kFixtures = BARRACUDA_NVCC_FIXTURES;

struct Segment {
  std::uint64_t address = 0;
  std::uint64_t size = 0;
};

// Where the wrapper records live (section .nvFatBinSegment), as a link-time address.
Segment wrapper_segment(const std::string& path) {
  elf_version(EV_CURRENT);
  int fd = ::open(path.c_str(), O_RDONLY);
  std::unique_ptr<Elf, decltype(&elf_end)> elf(elf_begin(fd, ELF_C_READ, nullptr), elf_end);
  std::size_t names = 0;
  elf_getshdrstrndx(elf.get(), &names);
  Segment segment;
  for (Elf_Scn* scn = elf_nextscn(elf.get(), nullptr); scn != nullptr; scn = elf_nextscn(elf.get(), scn)) {
    GElf_Shdr header;
    gelf_getshdr(scn, &header);
    if (std::string(elf_strptr(elf.get(), names, header.sh_name)) == ".nvFatBinSegment") {
      segment = {header.sh_addr, header.sh_size};
    }
  }
  ::close(fd);
  return segment;
}

struct LoadedLibrary {
  explicit LoadedLibrary(const std::string& path) : handle(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {}
  ~LoadedLibrary() {
    if (handle != nullptr) dlclose(handle);
  }
  std::uintptr_t base() const {
    link_map* map = nullptr;
    dlinfo(handle, RTLD_DI_LINKMAP, &map);
    return map->l_addr;
  }
  void* handle;
};

// Every container the file holds, in file order.
std::vector<Container> file_containers(const std::string& path) {
  std::vector<Container> all;
  for (auto& section : read_elf_file(path)) {
    for (auto& container : section.containers) all.push_back(std::move(container));
  }
  return all;
}

const Container* same_container(const std::vector<Container>& candidates, const Container& loaded) {
  for (const auto& candidate : candidates) {
    if (candidate.size == loaded.size && candidate.entries.size() == loaded.entries.size() &&
        candidate.entries.front().payload == loaded.entries.front().payload) {
      return &candidate;
    }
  }
  return nullptr;
}

void expect_wrappers_match_the_file(const std::string& library, std::uint32_t wrapper_version, std::size_t containers) {
  auto path = kFixtures + "/" + library;
  LoadedLibrary loaded(path);
  ASSERT_NE(loaded.handle, nullptr) << dlerror();
  auto segment = wrapper_segment(path);
  ASSERT_GE(segment.size, sizeof(WrapperRecord));
  auto in_file = file_containers(path);
  std::size_t seen = 0;
  bool found_version = false;
  for (std::uint64_t at = 0; at + sizeof(WrapperRecord) <= segment.size; at += sizeof(WrapperRecord)) {
    const auto* record = reinterpret_cast<const WrapperRecord*>(loaded.base() + segment.address + at);
    found_version |= record->version == wrapper_version;
    auto image = read_image(record);
    EXPECT_EQ(image.kind, ImageKind::Wrapper);
    for (const auto& container : image.containers) {
      const Container* match = same_container(in_file, container);
      ASSERT_NE(match, nullptr) << "a wrapper points at a container the file does not hold";
      for (std::size_t e = 0; e < container.entries.size(); ++e) testing::expect_same_entry(container.entries[e], match->entries[e]);
      ++seen;
    }
  }
  EXPECT_TRUE(found_version);
  EXPECT_EQ(seen, containers);
}

TEST(LoadedLibrary, WrappersLeadToTheContainersOfTheFile) {
  // A version-2 wrapper for the device-link stub (empty prelinked list), a version-1 one for the code.
  expect_wrappers_match_the_file("libkernels.so", kWrapperVersion, 2);
}

TEST(LoadedLibrary, LinkedWrapperListsThePrelinkedContainers) {
  // The linked wrapper (its container and the two objects' prelinked ones), then each object's own
  // version-1 wrapper around its prelinked container.
  expect_wrappers_match_the_file("libkernels_rdc.so", kWrapperLinkedVersion, 5);
}

TEST(LoadedLibrary, LinkedWrapperYieldsEachObjectsPtx) {
  auto path = kFixtures + "/libkernels_rdc.so";
  LoadedLibrary loaded(path);
  ASSERT_NE(loaded.handle, nullptr) << dlerror();
  auto segment = wrapper_segment(path);
  const auto* first = reinterpret_cast<const WrapperRecord*>(loaded.base() + segment.address);
  ASSERT_EQ(first->version, kWrapperLinkedVersion);
  auto image = read_image(first);
  std::vector<std::string> kernels;
  for (const Entry* ptx : select_ptx_per_container(image.containers, SmArch{90})) {
    for (auto& kernel : ptx_kernels(ptx->text())) kernels.push_back(kernel);
  }
  EXPECT_EQ(kernels, (std::vector<std::string>{"_Z10use_triplePi", "_Z12triple_firstPi"}));
}

}  // namespace
}  // namespace barracuda::fatbin

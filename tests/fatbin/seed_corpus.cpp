// Writes the fatbin fuzzer's seed corpus into the directory given: small valid containers in every
// compression, a two-container section, a raw cubin and PTX text, all built by the writer.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fatbin/writer.h"
#include "test_entries.h"

namespace {

using namespace barracuda::fatbin;

void save(const std::filesystem::path& dir, const std::string& name, const std::vector<std::byte>& bytes) {
  std::ofstream out(dir / name, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  for (auto codec : testing::kAllCompressions) {
    std::vector entries{testing::ptx_entry(codec, {90}, "-O2"), testing::cubin_entry(codec, 11), testing::lto_entry(codec)};
    save(dir, "container-" + std::string(to_string(codec)), write_container(entries));
  }
  auto section = write_container(std::vector{testing::cubin_entry(Compression::None, 3)});
  auto second = write_container(std::vector{testing::ptx_entry(Compression::Zstd, {80})});
  section.insert(section.end(), second.begin(), second.end());
  save(dir, "section-two-containers", section);
  save(dir, "raw-cubin", testing::minimal_elf(16));
  save(dir, "raw-ptx", testing::bytes_of(testing::kSamplePtx));
  return 0;
}

#include "runtime/cubin_cache.h"

#include <unistd.h>
#include <xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "barracuda/record.h"

namespace barracuda::runtime {
namespace {

void hash_field(XXH3_state_t* state, std::string_view bytes) {
  // Length-prefixed so that field boundaries are part of the key ("ab","c" != "a","bc").
  uint64_t size = bytes.size();
  XXH3_128bits_update(state, &size, sizeof size);
  XXH3_128bits_update(state, bytes.data(), bytes.size());
}

}  // namespace

std::string cache_key(const JitRequest& request, std::string_view tool_version) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  hash_field(state, tool_version);
  std::string format = std::to_string(kRecordFormatVersion);
  hash_field(state, format);
  for (const std::string& option : jit_options(request)) hash_field(state, option);
  for (const PtxInput& input : request.inputs) hash_field(state, input.text);
  XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return hex;
}

std::filesystem::path default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "barracuda";
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".cache" / "barracuda";
  return std::filesystem::temp_directory_path() / "barracuda-cache";
}

std::optional<std::vector<char>> CubinCache::load(const std::string& key) const {
  std::ifstream in(entry_path(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // A cubin is an ELF file; anything else (a truncated write from a crashed process) is a miss.
  if (bytes.size() < 4 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F') return std::nullopt;
  return bytes;
}

bool CubinCache::store(const std::string& key, const std::vector<char>& cubin) const {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return false;
  std::filesystem::path tmp = dir_ / (key + ".tmp." + std::to_string(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out.write(cubin.data(), static_cast<std::streamsize>(cubin.size()))) {
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::filesystem::rename(tmp, entry_path(key), ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return !ec;
}

std::vector<char> cached_link_to_cubin(const CubinCache& cache, const JitRequest& request,
                                       std::string_view tool_version, bool* compiled) {
  std::string key = cache_key(request, tool_version);
  if (auto hit = cache.load(key)) {
    if (compiled) *compiled = false;
    return *std::move(hit);
  }
  std::vector<char> cubin = link_to_cubin(request).cubin;
  cache.store(key, cubin);
  if (compiled) *compiled = true;
  return cubin;
}

}  // namespace barracuda::runtime

#include "runtime/runtime_compiled_ptx.h"

#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "shim/image_kind.h"

namespace barracuda::runtime {
namespace {

// 128-bit hash of the cubin's bytes in hex. The bytes counted are the ELF file's own extent, which is
// also all the shim can know of an image the driver is given (a pointer, no size).
std::string cubin_key(const void* cubin, std::size_t size) {
  const XXH128_hash_t hash = XXH3_128bits(cubin, size);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(hash.high64),
                static_cast<unsigned long long>(hash.low64));
  return hex;
}

std::size_t elf_extent(const void* cubin, std::size_t size) {
  if (shim::classify_image(cubin) != shim::ImageKind::Elf) return size;
  return std::min(size, shim::image_size(cubin, shim::ImageKind::Elf).value_or(size));
}

std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// PTX text always declares its version and target; a truncated or foreign file is not PTX.
bool looks_like_ptx(std::string_view text) {
  return text.find(".version") != std::string_view::npos && text.find(".target") != std::string_view::npos;
}

// Best effort, written whole then renamed: a cache that cannot be written only costs later runs.
void store_text(const std::filesystem::path& dir, const std::string& key, const std::filesystem::path& path,
                std::string_view text) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  const std::filesystem::path temporary = dir / (key + ".tmp." + std::to_string(::getpid()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) {
      out.close();
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) std::filesystem::remove(temporary, error);
}

// The code a link input carries, when it is PTX text or LTO-IR (in memory or in a file). Null with `why`
// set for inputs barracuda does not instrument yet (fat binaries, cubins, objects, libraries).
std::optional<std::string> code_of_link_input(const shim::LinkInput& input, std::string* why) {
  const std::string name = input.name != nullptr && input.name[0] != '\0' ? input.name : "an input";
  std::optional<std::string> bytes;
  if (input.from_file) {
    bytes = read_text(input.name != nullptr ? input.name : "");
    if (!bytes) {
      *why = "cannot read the link input " + name;
      return std::nullopt;
    }
  } else if (input.data != nullptr) {
    const char* text = static_cast<const char*>(input.data);
    bytes = input.type == CU_JIT_INPUT_PTX ? std::string(text, strnlen(text, input.size)) : std::string(text, input.size);
  }
  if (bytes && (input.type == CU_JIT_INPUT_PTX || input.type == CU_JIT_INPUT_NVVM)) return bytes;
  *why = "the JIT link had an input without PTX (" + name + ", input type " + std::to_string(input.type) + ")";
  return std::nullopt;
}

}  // namespace

void RuntimeCompiledPtx::remember(const void* cubin, std::size_t size, RuntimeCompiledModule module) {
  const std::string key = cubin_key(cubin, elf_extent(cubin, size));
  std::lock_guard lock(mutex_);
  modules_.insert_or_assign(key, std::move(module));
}

void RuntimeCompiledPtx::on_cubin_compiled(const shim::RuntimeCompiledCubin& compiled) {
  // Runs inside nvrtcGetCUBIN: nothing may escape.
  try {
    const std::string key = cubin_key(compiled.cubin, elf_extent(compiled.cubin, compiled.cubin_size));
    {
      std::lock_guard lock(mutex_);
      if (!modules_.emplace(key, RuntimeCompiledModule{{std::string(compiled.ptx)}, {}, {}}).second) return;
    }
    if (!dir_.empty()) store_text(dir_, key, entry_path(key), compiled.ptx);
  } catch (...) {
  }
}

void RuntimeCompiledPtx::on_link_input(const shim::LinkInput& input) {
  if (input.result != CUDA_SUCCESS) return;
  try {
    std::string why;
    std::optional<std::string> code = code_of_link_input(input, &why);
    std::lock_guard lock(mutex_);
    RuntimeCompiledModule& link = links_[input.link];
    if (!link.not_checkable.empty()) return;
    if (!code) {
      link = RuntimeCompiledModule{{}, {}, why};
    } else if (input.type == CU_JIT_INPUT_NVVM) {
      link.lto_ir.push_back(*std::move(code));
    } else {
      link.ptx.push_back(*std::move(code));
    }
  } catch (...) {
  }
}

void RuntimeCompiledPtx::on_link_complete(const shim::LinkOutput& output) {
  try {
    RuntimeCompiledModule link;
    {
      std::lock_guard lock(mutex_);
      const auto found = links_.find(output.link);
      if (found == links_.end()) return;
      link = std::move(found->second);
      links_.erase(found);
    }
    if (output.result != CUDA_SUCCESS || output.cubin == nullptr) return;
    if (link.ptx.empty() && link.lto_ir.empty() && link.not_checkable.empty()) {
      link.not_checkable = "the JIT link had no PTX or LTO-IR input";
    }
    remember(output.cubin, output.size, std::move(link));
  } catch (...) {
  }
}

void RuntimeCompiledPtx::on_link_destroy(shim::LinkId link) {
  std::lock_guard lock(mutex_);
  links_.erase(link);
}

std::optional<RuntimeCompiledModule> RuntimeCompiledPtx::find(const void* cubin, std::size_t size) const {
  const std::string key = cubin_key(cubin, size);
  {
    std::lock_guard lock(mutex_);
    if (const auto known = modules_.find(key); known != modules_.end()) return known->second;
  }
  if (dir_.empty()) return std::nullopt;
  std::optional<std::string> text = read_text(entry_path(key));
  if (!text || !looks_like_ptx(*text)) return std::nullopt;
  return RuntimeCompiledModule{{*std::move(text)}, {}, {}};
}

}  // namespace barracuda::runtime

#include "fatbin/compression.h"

#include <lz4.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "fatbin/error.h"
#include "fatbin/format.h"

namespace barracuda::fatbin {
namespace {

// Real payloads expand at most ~30x (libcublas 13: 30x); a header announcing far more is corrupt, and
// believing it would let a few bytes of input allocate gigabytes.
constexpr std::uint64_t kMaxExpansion = 1024;
constexpr std::uint64_t kMaxExpansionSlack = 64 * 1024;

const char* chars(std::span<const std::byte> bytes) { return reinterpret_cast<const char*>(bytes.data()); }
char* chars(std::vector<std::byte>& bytes) { return reinterpret_cast<char*>(bytes.data()); }

// What a decompressor did: the bytes it produced, or why it failed.
struct Outcome {
  std::size_t produced = 0;
  std::string error;
};

Outcome inflate_zlib(std::span<const std::byte> in, std::vector<std::byte>& out) {
  uLongf produced = out.size();
  int status = uncompress(reinterpret_cast<Bytef*>(out.data()), &produced,
                          reinterpret_cast<const Bytef*>(in.data()), in.size());
  if (status != Z_OK) return {0, std::string("zlib: ") + zError(status)};
  return {produced, {}};
}

Outcome inflate_lz4_block(std::span<const std::byte> in, std::vector<std::byte>& out) {
  int produced = LZ4_decompress_safe(chars(in), chars(out), static_cast<int>(in.size()), static_cast<int>(out.size()));
  if (produced < 0) return {0, "lz4: corrupt block"};
  return {static_cast<std::size_t>(produced), {}};
}

Outcome inflate_lz4_frame(std::span<const std::byte> in, std::vector<std::byte>& out) {
  LZ4F_dctx* raw = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) return {0, "lz4: out of memory"};
  std::unique_ptr<LZ4F_dctx, decltype(&LZ4F_freeDecompressionContext)> context(raw, LZ4F_freeDecompressionContext);
  std::size_t consumed = 0;
  std::size_t produced = 0;
  while (consumed < in.size()) {
    std::size_t in_size = in.size() - consumed;
    std::size_t out_size = out.size() - produced;
    std::size_t hint = LZ4F_decompress(context.get(), chars(out) + produced, &out_size, chars(in) + consumed, &in_size, nullptr);
    if (LZ4F_isError(hint)) return {0, std::string("lz4 frame: ") + LZ4F_getErrorName(hint)};
    consumed += in_size;
    produced += out_size;
    if (hint == 0) return {produced, {}};
    if (in_size == 0 && out_size == 0) return {0, "lz4 frame: output larger than announced"};
  }
  return {0, "lz4 frame: truncated"};
}

Outcome inflate_zstd(std::span<const std::byte> in, std::vector<std::byte>& out) {
  std::size_t produced = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(produced)) return {0, std::string("zstd: ") + ZSTD_getErrorName(produced)};
  return {produced, {}};
}

}  // namespace

std::optional<Compression> compression_from_flags(std::uint64_t flags) {
  switch (flags & flag::kCompressionMask) {
    case 0: return Compression::None;
    case flag::kZlib: return Compression::Zlib;
    case flag::kLz4Block: return Compression::Lz4Block;
    case flag::kLz4Frame: return Compression::Lz4Frame;
    case flag::kZstd: return Compression::Zstd;
    default: return std::nullopt;
  }
}

std::uint64_t compression_flag(Compression compression) {
  switch (compression) {
    case Compression::None: return 0;
    case Compression::Zlib: return flag::kZlib;
    case Compression::Lz4Block: return flag::kLz4Block;
    case Compression::Lz4Frame: return flag::kLz4Frame;
    case Compression::Zstd: return flag::kZstd;
  }
  return 0;
}

std::vector<std::byte> decompress(Compression compression, std::span<const std::byte> stored,
                                  std::uint64_t expected_size, std::uint64_t offset) {
  if (compression == Compression::None) return {stored.begin(), stored.end()};
  if (expected_size > stored.size() * kMaxExpansion + kMaxExpansionSlack) {
    throw FormatError(offset, "decompressed size " + std::to_string(expected_size) + " is implausible for " +
                                  std::to_string(stored.size()) + " compressed bytes");
  }
  std::vector<std::byte> out(expected_size);
  Outcome outcome;
  switch (compression) {
    case Compression::Zlib: outcome = inflate_zlib(stored, out); break;
    case Compression::Lz4Block: outcome = inflate_lz4_block(stored, out); break;
    case Compression::Lz4Frame: outcome = inflate_lz4_frame(stored, out); break;
    case Compression::Zstd: outcome = inflate_zstd(stored, out); break;
    case Compression::None: break;
  }
  if (!outcome.error.empty()) throw FormatError(offset, outcome.error);
  if (outcome.produced != expected_size) {
    throw FormatError(offset, std::string(to_string(compression)) + " payload decompressed to " +
                                  std::to_string(outcome.produced) + " bytes, header says " +
                                  std::to_string(expected_size));
  }
  return out;
}

std::vector<std::byte> compress(Compression compression, std::span<const std::byte> data) {
  std::vector<std::byte> out;
  std::size_t produced = 0;
  switch (compression) {
    case Compression::None: return {data.begin(), data.end()};
    case Compression::Zlib: {
      uLongf size = compressBound(data.size());
      out.resize(size);
      if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(data.data()),
                    data.size(), Z_BEST_COMPRESSION) != Z_OK) {
        throw std::runtime_error("zlib compression failed");
      }
      produced = size;
      break;
    }
    case Compression::Lz4Block:
      out.resize(static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(data.size()))));
      produced = static_cast<std::size_t>(
          LZ4_compress_default(chars(data), chars(out), static_cast<int>(data.size()), static_cast<int>(out.size())));
      if (produced == 0) throw std::runtime_error("lz4 compression failed");
      break;
    case Compression::Lz4Frame:
      out.resize(LZ4F_compressFrameBound(data.size(), nullptr));
      produced = LZ4F_compressFrame(out.data(), out.size(), data.data(), data.size(), nullptr);
      if (LZ4F_isError(produced)) throw std::runtime_error(LZ4F_getErrorName(produced));
      break;
    case Compression::Zstd:
      out.resize(ZSTD_compressBound(data.size()));
      produced = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), ZSTD_CLEVEL_DEFAULT);
      if (ZSTD_isError(produced)) throw std::runtime_error(ZSTD_getErrorName(produced));
      break;
  }
  out.resize(produced);
  return out;
}

}  // namespace barracuda::fatbin

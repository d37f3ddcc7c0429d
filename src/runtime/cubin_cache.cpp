#include "runtime/cubin_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#include "barracuda/record.h"

namespace barracuda::runtime {
namespace {

void hash_field(XXH3_state_t* state, std::string_view bytes) {
  // Length-prefixed so that field boundaries are part of the key ("ab","c" != "a","bc").
  uint64_t size = bytes.size();
  XXH3_128bits_update(state, &size, sizeof size);
  XXH3_128bits_update(state, bytes.data(), bytes.size());
}

// What precedes the cubin in an entry. The key names what the cubin was compiled from, not the bytes on
// disk: an entry can still be truncated or damaged after its rename (a crash before the data reached
// the disk, a failing disk, another program), and the driver must never be handed such a cubin.
struct EntryHeader {
  std::array<char, 8> magic;
  uint64_t format;  // of this header
  uint64_t payload_size;
  uint64_t payload_checksum;  // XXH3-64
};
static_assert(std::is_trivially_copyable_v<EntryHeader> && sizeof(EntryHeader) == 32);

constexpr std::array<char, 8> kEntryMagic = {'B', 'R', 'C', 'U', 'B', 'I', 'N', '\0'};
constexpr uint64_t kEntryFormat = 1;

EntryHeader entry_header(const std::vector<char>& cubin) {
  return {kEntryMagic, kEntryFormat, cubin.size(), XXH3_64bits(cubin.data(), cubin.size())};
}

// The cubin of an entry that store() wrote whole, else nothing.
std::optional<std::vector<char>> verified_payload(std::vector<char> entry) {
  EntryHeader header;
  if (entry.size() < sizeof header) return std::nullopt;
  std::memcpy(&header, entry.data(), sizeof header);
  entry.erase(entry.begin(), entry.begin() + sizeof header);
  if (header.magic != kEntryMagic || header.format != kEntryFormat || header.payload_size != entry.size() ||
      header.payload_checksum != XXH3_64bits(entry.data(), entry.size())) {
    return std::nullopt;
  }
  return entry;
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  // Closes now: close() can be the first to report a failed write (NFS, quotas).
  bool close() { return ::close(std::exchange(fd_, -1)) == 0; }

 private:
  int fd_;
};

// The file's bytes when it is a regular file. Read with POSIX calls: a FIFO under the entry's name
// would block an ordinary open until some writer came (O_NONBLOCK, then fstat, rejects it), and
// std::ifstream throws on a read error (a directory's EISDIR) out of the launch path.
std::optional<std::vector<char>> read_regular_file(const std::filesystem::path& path) {
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  struct stat info;
  if (file.get() < 0 || ::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  std::vector<char> bytes(static_cast<size_t>(info.st_size));
  size_t filled = 0;
  while (filled < bytes.size()) {
    const ssize_t n = ::read(file.get(), bytes.data() + filled, bytes.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    filled += static_cast<size_t>(n);
  }
  return bytes;
}

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // ENOSPC, EFBIG, EDQUOT, EIO: the entry cannot be completed
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Writes a new file and reports whether all of it reached the disk: only such a file may be renamed
// into place, else a crash or a full disk leaves an entry that looks complete by name.
bool write_new_file_durably(const std::filesystem::path& path, const EntryHeader& header,
                            const std::vector<char>& payload) {
  FileDescriptor file(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  return file.get() >= 0 && write_all(file.get(), reinterpret_cast<const char*>(&header), sizeof header) &&
         write_all(file.get(), payload.data(), payload.size()) && ::fsync(file.get()) == 0 && file.close();
}

// Unique per store() call: two threads of one process may compile and store the same module at once.
std::filesystem::path temporary_path(const std::filesystem::path& entry) {
  static std::atomic<uint64_t> stores{0};
  return entry.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(stores++);
}

// rename() replaces a file, a FIFO or a link, but not a directory: an empty one under the entry's name
// is removed first. A non-empty one is not ours to delete; the entry then stays a miss.
bool move_into_place(const std::filesystem::path& from, const std::filesystem::path& entry) {
  std::error_code ec;
  if (std::filesystem::is_directory(std::filesystem::symlink_status(entry, ec))) std::filesystem::remove(entry, ec);
  std::filesystem::rename(from, entry, ec);
  return !ec;
}

}  // namespace

std::string cache_key(const JitRequest& request, std::string_view tool_version) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  hash_field(state, tool_version);
  std::string format = std::to_string(kRecordFormatVersion);
  hash_field(state, format);
  for (const std::string& option : jit_options(request)) hash_field(state, option);
  for (const LinkInput& input : request.inputs) hash_field(state, input.text);
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
  std::optional<std::vector<char>> entry = read_regular_file(entry_path(key));
  if (!entry) return std::nullopt;
  return verified_payload(*std::move(entry));
}

bool CubinCache::store(const std::string& key, const std::vector<char>& cubin) const {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return false;
  const std::filesystem::path entry = entry_path(key);
  const std::filesystem::path tmp = temporary_path(entry);
  if (write_new_file_durably(tmp, entry_header(cubin), cubin) && move_into_place(tmp, entry)) return true;
  std::filesystem::remove(tmp, ec);
  return false;
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

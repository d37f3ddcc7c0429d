#include "fatbin/cubin_lines.h"

#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>

#include "fatbin/byte_view.h"
#include "fatbin/error.h"

namespace barracuda::fatbin {
namespace {

// Reads a line program front to back; every read is bounds-checked (FormatError names the field).
class Cursor {
 public:
  explicit Cursor(ByteView bytes) : bytes_(bytes) {}
  uint64_t at() const { return at_; }
  bool done() const { return at_ >= bytes_.size(); }
  template <typename T>
  T fixed(const char* what) {
    const T value = bytes_.read<T>(at_, what);
    at_ += sizeof(T);
    return value;
  }
  uint64_t uleb(const char* what) {
    uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      const auto byte = fixed<uint8_t>(what);
      if (shift < 64) value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80u) == 0) return value;
    }
  }
  int64_t sleb(const char* what) {
    int64_t value = 0;
    unsigned shift = 0;
    uint8_t byte = 0;
    do {
      byte = fixed<uint8_t>(what);
      if (shift < 64) value |= static_cast<int64_t>(uint64_t{byte & 0x7fu} << shift);
      shift += 7;
    } while (byte & 0x80u);
    if (shift < 64 && (byte & 0x40u)) value |= -(int64_t{1} << shift);
    return value;
  }
  std::string string(const char* what) {
    std::string text;
    for (char c; (c = static_cast<char>(fixed<uint8_t>(what))) != '\0';) text.push_back(c);
    return text;
  }
  void skip(uint64_t bytes, const char* what) {
    bytes_.slice(at_, bytes, what);
    at_ += bytes;
  }

 private:
  ByteView bytes_;
  uint64_t at_ = 0;
};

struct Sections {
  ByteView line{{}};
  std::map<uint64_t, std::string> kernel_at;  // .debug_line offset of a relocated address -> its symbol
};

std::span<const std::byte> section_bytes(Elf_Scn* section) {
  Elf_Data* data = elf_rawdata(section, nullptr);
  if (data == nullptr || data->d_buf == nullptr) return {};
  return {static_cast<const std::byte*>(data->d_buf), data->d_size};
}

// The .debug_line section and the symbols its relocations name.
std::optional<Sections> find_sections(Elf* elf) {
  size_t names = 0;
  if (elf_getshdrstrndx(elf, &names) != 0) throw std::runtime_error(std::string("cubin: ") + elf_errmsg(-1));
  Elf_Scn* line = nullptr;
  size_t line_index = 0;
  for (Elf_Scn* s = elf_nextscn(elf, nullptr); s != nullptr; s = elf_nextscn(elf, s)) {
    GElf_Shdr header;
    const char* name = gelf_getshdr(s, &header) ? elf_strptr(elf, names, header.sh_name) : nullptr;
    if (name != nullptr && std::strcmp(name, ".debug_line") == 0 && header.sh_type != SHT_NOBITS) {
      line = s;
      line_index = elf_ndxscn(s);
    }
  }
  if (line == nullptr) return std::nullopt;
  Sections found;
  found.line = ByteView(section_bytes(line));
  for (Elf_Scn* s = elf_nextscn(elf, nullptr); s != nullptr; s = elf_nextscn(elf, s)) {
    GElf_Shdr header;
    if (gelf_getshdr(s, &header) == nullptr || header.sh_type != SHT_RELA || header.sh_info != line_index) continue;
    Elf_Scn* symbols = elf_getscn(elf, header.sh_link);
    GElf_Shdr symbols_header;
    Elf_Data* relocations = elf_getdata(s, nullptr);
    Elf_Data* symbol_data = symbols ? elf_getdata(symbols, nullptr) : nullptr;
    if (relocations == nullptr || symbol_data == nullptr || gelf_getshdr(symbols, &symbols_header) == nullptr) continue;
    const size_t count = header.sh_entsize ? header.sh_size / header.sh_entsize : 0;
    for (size_t i = 0; i < count; ++i) {
      GElf_Rela rela;
      GElf_Sym symbol;
      if (gelf_getrela(relocations, static_cast<int>(i), &rela) == nullptr ||
          gelf_getsym(symbol_data, static_cast<int>(GELF_R_SYM(rela.r_info)), &symbol) == nullptr) {
        continue;
      }
      if (const char* name = elf_strptr(elf, symbols_header.sh_link, symbol.st_name)) found.kernel_at[rela.r_offset] = name;
    }
  }
  return found;
}

// One unit of the line program (DWARF 2-4), its rows added to `lines`.
void read_unit(const ByteView& section, uint64_t start, const std::map<uint64_t, std::string>& kernel_at,
               KernelLines& lines, uint64_t& next) {
  Cursor header_cursor(section.slice(start, section.size() - start, "line table unit"));
  uint64_t length = header_cursor.fixed<uint32_t>("unit length");
  const bool dwarf64 = length == 0xffffffffu;
  if (dwarf64) length = header_cursor.fixed<uint64_t>("unit length");
  const uint64_t body = start + header_cursor.at();
  const ByteView unit = section.slice(body, length, "line table unit");
  next = body + length;
  Cursor in(unit);
  const auto version = in.fixed<uint16_t>("version");
  if (version < 2 || version > 4) throw FormatError(section.origin() + start, "DWARF line table version " + std::to_string(version));
  const uint64_t header_length = dwarf64 ? in.fixed<uint64_t>("header length") : in.fixed<uint32_t>("header length");
  const uint64_t program = in.at() + header_length;
  const auto min_instruction = in.fixed<uint8_t>("minimum instruction length");
  if (version >= 4) in.fixed<uint8_t>("maximum operations per instruction");
  in.fixed<uint8_t>("default is_stmt");
  const auto line_base = in.fixed<int8_t>("line base");
  const auto line_range = in.fixed<uint8_t>("line range");
  const auto opcode_base = in.fixed<uint8_t>("opcode base");
  if (line_range == 0 || opcode_base == 0) throw FormatError(section.origin() + body, "line range or opcode base of 0");
  std::vector<uint8_t> argument_counts(opcode_base);
  for (uint8_t i = 1; i < opcode_base; ++i) argument_counts[i] = in.fixed<uint8_t>("standard opcode lengths");
  std::vector<std::string> directories{""};
  for (std::string d; !(d = in.string("include directory")).empty();) directories.push_back(d);
  std::vector<std::string> files{""};
  const auto add_file = [&](Cursor& from) {
    std::string name = from.string("file name");
    const uint64_t directory = from.uleb("file directory");
    from.uleb("file time");
    from.uleb("file size");
    files.push_back(directory != 0 && directory < directories.size() ? directories[directory] + "/" + name : name);
  };
  while (true) {
    Cursor peek = in;
    if (peek.fixed<uint8_t>("file name") == 0) {
      in.fixed<uint8_t>("file table end");
      break;
    }
    add_file(in);
  }
  Cursor code = in;
  code.skip(program - in.at(), "line program");
  uint64_t address = 0;
  uint64_t file = 1;
  int64_t line = 1;
  std::string kernel;
  const auto row = [&](uint32_t at_line) {
    if (kernel.empty()) return;  // an address no relocation names: not a kernel's
    lines[kernel].push_back({address, file < files.size() ? files[file] : std::string(), at_line});
  };
  while (!code.done()) {
    const auto opcode = code.fixed<uint8_t>("opcode");
    if (opcode >= opcode_base) {
      const uint8_t adjusted = opcode - opcode_base;
      address += static_cast<uint64_t>(adjusted / line_range) * min_instruction;
      line += line_base + adjusted % line_range;
      row(static_cast<uint32_t>(line));
      continue;
    }
    switch (opcode) {
      case 0: {  // extended
        const uint64_t size = code.uleb("extended opcode length");
        if (size == 0) break;
        const uint64_t operands = code.at() + 1;
        const auto sub = code.fixed<uint8_t>("extended opcode");
        if (sub == 1) {  // end_sequence
          row(0);
          address = 0, file = 1, line = 1;
          kernel.clear();
        } else if (sub == 2 && size == 9) {  // set_address
          address = code.fixed<uint64_t>("address");
          const auto named = kernel_at.find(body + operands);
          kernel = named == kernel_at.end() ? std::string() : named->second;
        } else if (sub == 3) {  // define_file
          add_file(code);
        } else {
          code.skip(size - 1, "extended opcode operands");
        }
        break;
      }
      case 1: row(static_cast<uint32_t>(line)); break;                       // copy
      case 2: address += code.uleb("advance pc") * min_instruction; break;  // advance_pc
      case 3: line += code.sleb("advance line"); break;
      case 4: file = code.uleb("file"); break;
      case 8: address += uint64_t{(255u - opcode_base) / line_range} * min_instruction; break;  // const_add_pc
      case 9: address += code.fixed<uint16_t>("fixed advance pc"); break;
      default:  // column, stmt, basic block, prologue/epilogue, isa, and opcodes past DWARF's: operands skipped
        for (uint8_t i = 0; i < argument_counts[opcode]; ++i) code.uleb("opcode operand");
    }
  }
}

}  // namespace

KernelLines read_cubin_lines(std::span<const std::byte> cubin) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw std::runtime_error("libelf initialisation failed");
  // libelf reads from a buffer it may write to: a copy.
  std::vector<char> image(reinterpret_cast<const char*>(cubin.data()), reinterpret_cast<const char*>(cubin.data()) + cubin.size());
  std::unique_ptr<Elf, decltype(&elf_end)> elf(elf_memory(image.data(), image.size()), elf_end);
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF) throw std::runtime_error("cubin: not an ELF image");
  KernelLines lines;
  const std::optional<Sections> sections = find_sections(elf.get());
  if (!sections) return lines;
  for (uint64_t unit = 0; unit < sections->line.size();) read_unit(sections->line, unit, sections->kernel_at, lines, unit);
  for (auto& [kernel, rows] : lines) {
    std::stable_sort(rows.begin(), rows.end(), [](const SassLine& a, const SassLine& b) { return a.offset < b.offset; });
  }
  return lines;
}

const SassLine* line_at(const std::vector<SassLine>& lines, std::uint64_t offset) {
  auto after = std::upper_bound(lines.begin(), lines.end(), offset,
                                [](std::uint64_t at, const SassLine& row) { return at < row.offset; });
  if (after == lines.begin()) return nullptr;
  const SassLine& row = *std::prev(after);
  return row.line == 0 ? nullptr : &row;
}

}  // namespace barracuda::fatbin

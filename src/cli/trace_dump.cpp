#include "cli/trace_dump.h"

#include <bit>
#include <cstring>
#include <cstdio>
#include <string>
#include <variant>

#include "trace/trace_reader.h"

namespace barracuda::cli {
namespace {

const char* op_name(uint8_t op) {
  switch (static_cast<RecordOp>(op)) {
    case RecordOp::kInvalid: return "invalid";
    case RecordOp::kLoad: return "load";
    case RecordOp::kStore: return "store";
    case RecordOp::kAtomic: return "atomic";
    case RecordOp::kReduction: return "reduction";
    case RecordOp::kAsyncCopy: return "async-copy";
    case RecordOp::kFence: return "fence";
    case RecordOp::kBarrier: return "barrier";
    case RecordOp::kBarrierArrive: return "barrier-arrive";
    case RecordOp::kWarpSync: return "warp-sync";
    case RecordOp::kClusterBarrier: return "cluster-barrier";
    case RecordOp::kMbarrierArrive: return "mbarrier-arrive";
    case RecordOp::kMbarrierWait: return "mbarrier-wait";
    case RecordOp::kSyncTicket: return "sync-ticket";
    case RecordOp::kBranchIf: return "if";
    case RecordOp::kBranchElse: return "else";
    case RecordOp::kBranchFi: return "fi";
    case RecordOp::kWarpEntry: return "entry";
    case RecordOp::kWarpExit: return "exit";
  }
  return nullptr;
}

bool is_memory(uint8_t op) { return op >= static_cast<uint8_t>(RecordOp::kLoad) && op <= static_cast<uint8_t>(RecordOp::kAsyncCopy); }

// "0x..." for addresses and masks; the stream's own hex mode would leak into later fields.
std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(value));
  return text;
}

constexpr const char* kSpaces[] = {"global", "shared", "cluster", "other"};
constexpr const char* kSemantics[] = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "legacy"};
constexpr const char* kScopes[] = {"cta", "cluster", "gpu", "sys"};

// Lane addresses of a kDelta32/kFull64 record, "lane:address" for each active lane.
void print_lane_addresses(std::ostream& out, const RecordHeader& h, const RecordHeader* payload) {
  for (uint32_t m = h.active_mask; m; m &= m - 1) {
    const uint32_t lane = std::countr_zero(m);
    uint64_t address;
    if (record_address_mode(h) == AddressMode::kDelta32) {
      int32_t delta;
      std::memcpy(&delta, reinterpret_cast<const char*>(payload) + lane * sizeof delta, sizeof delta);
      address = h.base + static_cast<uint64_t>(static_cast<int64_t>(delta));
    } else {
      std::memcpy(&address, reinterpret_cast<const char*>(payload) + lane * sizeof address, sizeof address);
    }
    out << ' ' << lane << ':' << hex(address);
  }
}

}  // namespace

void print_record(std::ostream& out, const RecordHeader& h, const RecordHeader* payload) {
  const char* name = op_name(h.op);
  out << "launch " << h.launch_id << " block " << h.block_id << " warp " << h.warp_id << " site " << h.site_id << ' ';
  if (name) {
    out << name;
  } else {
    out << "op" << static_cast<uint32_t>(h.op);
  }
  out << " mask " << hex(h.active_mask);
  if (is_memory(h.op)) {
    out << ' ' << kSpaces[h.space_sem & 0x3u] << ' ' << kSemantics[(h.space_sem >> 2) & 0x7u] << '.'
        << kScopes[(h.space_sem >> 5) & 0x3u] << ' ' << record_access_bytes(h) << "B flags " << hex(h.flags);
    if (record_address_mode(h) == AddressMode::kAffine) {
      out << " base " << hex(h.base) << " stride " << record_affine_stride(h);
      if (h.flags & kFlagUniformValue) out << " value " << record_uniform_value(h);
    } else {
      print_lane_addresses(out, h, payload);
    }
  } else if (static_cast<RecordOp>(h.op) == RecordOp::kFence) {
    out << ' ' << kSemantics[(h.space_sem >> 2) & 0x7u] << '.' << kScopes[(h.space_sem >> 5) & 0x3u];
  } else {
    out << " payload " << hex(h.base) << " count " << h.stride;
  }
  out << '\n';
}

void dump_trace(std::istream& in, std::ostream& out) {
  trace::TraceReader reader(in);
  while (std::optional<trace::TraceItem> item = reader.next()) {
    if (const auto* module = std::get_if<trace::ModuleTable>(&*item)) {
      out << "module " << module->module_index << " sites " << module->site_base << ".."
          << module->site_base + module->sites.size() << '\n';
      for (size_t i = 0; i < module->sites.size(); ++i) {
        const trace::SiteInfo& site = module->sites[i];
        out << "  site " << module->site_base + i << ' ' << site.function << " ptx:" << site.ptx_line << ' ' << site.file
            << ':' << site.line << ':' << site.column << '\n';
      }
    } else if (const auto* launch = std::get_if<trace::LaunchDescriptor>(&*item)) {
      out << "launch " << launch->launch_id << ' ' << launch->kernel << " grid " << launch->grid[0] << 'x'
          << launch->grid[1] << 'x' << launch->grid[2] << " block " << launch->block[0] << 'x' << launch->block[1] << 'x'
          << launch->block[2] << " shared " << launch->dynamic_shared_bytes << "B\n";
    } else if (const auto* chunk = std::get_if<trace::SlotChunk>(&*item)) {
      out << "chunk queue " << chunk->queue_index << " slots " << chunk->slots.size() << '\n';
      for (size_t i = 0; i < chunk->slots.size();) {
        const RecordHeader& h = chunk->slots[i];
        const uint32_t mode = (h.size_mode >> 3) & 0x3u;
        const uint32_t slots = mode > 2 ? 1 : record_slots(static_cast<AddressMode>(mode));
        if (mode > 2 || chunk->slots.size() - i < slots) {
          out << "  malformed record at slot " << i << '\n';
          break;
        }
        out << "  ";
        print_record(out, h, chunk->slots.data() + i + 1);
        i += slots;
      }
    }
  }
}

}  // namespace barracuda::cli

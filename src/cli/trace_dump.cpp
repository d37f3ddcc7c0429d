#include "cli/trace_dump.h"

#include <bit>
#include <cstdio>
#include <string>
#include <variant>

#include "barracuda/sync_bucket.h"
#include "trace/trace_reader.h"

namespace barracuda::cli {
namespace {

// "0x..." for addresses and masks; the stream's own hex mode would leak into later fields.
std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(value));
  return text;
}

// Lane addresses of a kDelta32/kFull64 record, "lane:address" for each active lane.
void print_lane_addresses(std::ostream& out, const RecordView& record) {
  for (uint32_t m = record.header().active_mask; m; m &= m - 1) {
    const uint32_t lane = std::countr_zero(m);
    out << ' ' << lane << ':' << hex(record.lane_address(lane));
  }
}

// Device race records' Hazard values.
constexpr const char* kHazards[] = {"RAW", "WAR", "WAW", "hazard3"};

}  // namespace

void print_record(std::ostream& out, const RecordHeader& h, const RecordHeader* payload) {
  const RecordView record(h, payload);
  out << "launch " << h.launch_id << " block " << h.block_id << " warp " << h.warp_id << " site " << h.site_id << ' ';
  if (const char* name = record_op_name(record.op())) {
    out << name;
  } else {
    out << "op" << static_cast<uint32_t>(h.op);
  }
  out << " mask " << hex(h.active_mask);
  if (record.is_memory_access()) {
    out << ' ' << memory_space_name(record.space()) << ' ' << memory_semantics_name(record.semantics()) << '.'
        << memory_scope_name(record.scope()) << ' ' << record.access_bytes() << "B flags " << hex(h.flags);
    if (record.address_mode() == AddressMode::kAffine) {
      out << " base " << hex(h.base) << " stride " << record.affine_stride();
      if (record.has_uniform_value()) out << " value " << record.uniform_value();
    } else {
      print_lane_addresses(out, record);
    }
  } else if (record.op() == RecordOp::kSharedRace) {
    const SharedRacePayload race = record.shared_race();
    out << " offset " << hex(race.offset) << ' ' << kHazards[static_cast<uint8_t>(race.hazard)] << " first site "
        << race.first_site << " thread " << race.first_thread;
    if (race.same_value) out << " same value " << race.value;
  } else if (record.op() == RecordOp::kGlobalRace) {
    const GlobalRacePayload race = record.global_race();
    out << " address " << hex(h.base) << ' ' << kHazards[static_cast<uint8_t>(race.hazard)] << " first site "
        << race.first_site << " block " << race.first_block << " thread " << race.first_thread;
    if (race.same_value) out << " same value " << race.value;
  } else if (record.op() == RecordOp::kFence) {
    out << ' ' << memory_semantics_name(record.semantics()) << '.' << memory_scope_name(record.scope());
  } else if (record.op() == RecordOp::kSyncTicket && record.address_mode() == AddressMode::kFull64) {
    out << " lane tickets";  // lane:bucket/ticket (barracuda/sync_bucket.h)
    for (uint32_t m = h.active_mask; m != 0; m &= m - 1) {
      const auto lane = static_cast<uint32_t>(std::countr_zero(m));
      const uint64_t word = record.lane_address(lane);
      out << ' ' << lane << ':' << lane_ticket_bucket(word) << '/' << lane_ticket_number(word);
    }
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
        const RecordView record(chunk->slots[i]);
        if (record.defect() == RecordDefect::kUnknownAddressMode || chunk->slots.size() - i < record.slot_count()) {
          out << "  malformed record at slot " << i << '\n';
          break;
        }
        out << "  ";
        print_record(out, chunk->slots[i], chunk->slots.data() + i + 1);
        i += record.slot_count();
      }
    }
  }
}

}  // namespace barracuda::cli

#include "report/sarif_renderer.h"

#include <cctype>
#include <cstdio>

#include "report/fence_fix.h"
#include "report/fingerprint.h"
#include "report/json_report.h"
#include "report/names.h"
#include "report/sarif_rules.h"
#include "report/value_text.h"

namespace barracuda::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr std::string_view kSourceRootId = "SRCROOT";

// Absolute paths become file:// URIs; relative ones stay relative to SRCROOT. Characters outside the
// URI path alphabet are percent-encoded.
Json artifact_location(const std::string& path) {
  std::string uri = path.starts_with('/') ? "file://" : "";
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::string_view{"/-._~"}.find(static_cast<char>(c)) != std::string_view::npos) {
      uri += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  Json location{{"uri", uri}};
  if (!path.starts_with('/')) location["uriBaseId"] = kSourceRootId;
  return location;
}

// The physical location exists only with line info; the function is always known.
Json location_json(const Site& site) {
  Json location = Json::object();
  if (site.source.known()) {
    Json region{{"startLine", site.source.line}};
    if (site.source.column != 0) region["startColumn"] = site.source.column;
    location["physicalLocation"] = Json{{"artifactLocation", artifact_location(site.source.file)}, {"region", region}};
  }
  location["logicalLocations"] = Json::array({Json{{"name", site.function}, {"kind", "function"}}});
  return location;
}

std::string access_phrase(const Access& access) {
  return std::string{name_of(kAccessOperationNames, access.kind)} + " by thread " + coord_text(access.thread.thread) +
         " of block " + coord_text(access.thread.block) + " at " + site_position_text(access.site);
}

// SARIF `fix`: the fence's line inserted at the start of the site's line (kFenceBefore) or of the
// line after it (an empty region there).
Json insertion_fix(const FenceFix& fix) {
  const uint32_t line = fix.site.source.line + (fix.kind == FenceFix::Kind::kFenceBefore ? 0 : 1);
  Json region{{"startLine", line}, {"startColumn", 1}, {"endLine", line}, {"endColumn", 1}};
  Json replacement{{"deletedRegion", region}, {"insertedContent", {{"text", *fix.inserted_line + "\n"}}}};
  return Json{{"description", {{"text", fix.change}}},
              {"artifactChanges", Json::array({Json{{"artifactLocation", artifact_location(fix.site.source.file)},
                                                    {"replacements", Json::array({replacement})}}})}};
}

void add_hardening(const Race& race, Json& result) {
  const RaceHardening hardening = harden_race(race);
  Json property = Json::object();
  if (hardening.fixes.empty()) {
    property["noFix"] = hardening.no_fix_reason;
  } else {
    Json changes = Json::array();
    Json fixes = Json::array();
    for (const FenceFix& fix : hardening.fixes) {
      changes.push_back(Json{{"location", site_position_text(fix.site)}, {"change", fix.change}});
      if (fix.inserted_line && fix.site.source.known()) fixes.push_back(insertion_fix(fix));
    }
    property["changes"] = std::move(changes);
    if (!fixes.empty()) result["fixes"] = std::move(fixes);
  }
  result["properties"]["hardening"] = std::move(property);
}

Json race_result(const Race& race, const SarifOptions& options) {
  const std::string message = std::string(race.unfenced_acquire ? "Unfenced acquire (" : "Data race (") +
                              std::string{name_of(kRaceClassNames, race.race_class)} + ", " +
                              std::string{name_of(kMemorySpaceNames, race.space)} + ", " +
                              std::string{name_of(kHazardNames, race.hazard)} + ") in kernel " + race.kernel +
                              ": " + access_phrase(race.current) + " conflicts with the previous " +
                              access_phrase(race.previous) + "; " + std::to_string(race.size) + " bytes at " +
                              address_text(race.address) + ", seen " + std::to_string(race.dynamic_count) +
                              " times." +
                              (race.unfenced_acquire ? " Missing: " + race.unfenced_acquire->missing_fence + "." : "") +
                              (race.allocation ? " Memory: " + allocation_text(*race.allocation, race.size, race.address) + "." : "") +
                              (race.current.out_of_bounds
                                   ? " Out of bounds: " + out_of_bounds_text(*race.current.out_of_bounds, race.address) + "."
                                   : "") +
                              (race.previous.out_of_bounds
                                   ? " Previous access out of bounds: " +
                                         out_of_bounds_text(*race.previous.out_of_bounds, race.address) + "."
                                   : "");
  Json related = location_json(race.previous.site);
  related["id"] = 1;
  related["message"] = Json{{"text", "Previous " + access_phrase(race.previous)}};
  Json related_locations = Json::array({related});
  if (race.unfenced_acquire) {
    Json flag = location_json(race.unfenced_acquire->flag);
    flag["id"] = 2;
    flag["message"] = Json{{"text", "Spin on the flag, with no acquire fence after it"}};
    related_locations.push_back(std::move(flag));
  }
  if (race.flag_hand_off) {
    Json write = location_json(race.flag_hand_off->write);
    write["id"] = 3;
    write["message"] = Json{{"text", "Flag written with no fence before it (the pair's hand-off)"}};
    related_locations.push_back(std::move(write));
    Json read = location_json(race.flag_hand_off->read);
    read["id"] = 4;
    read["message"] = Json{{"text", "Flag read with no fence after it (the pair's hand-off)"}};
    related_locations.push_back(std::move(read));
  }
  const size_t rule = sarif_rule_index(race);
  Json properties{{"kernel", race.kernel}, {"launchIndex", race.launch_index}, {"dynamicCount", race.dynamic_count}};
  if (race.pid != 0) properties["pid"] = race.pid;
  if (race.perturb_seed != 0) properties["perturb_seed"] = race.perturb_seed;
  if (race.allocation) properties["allocation"] = allocation_json(*race.allocation);
  Json result{{"ruleId", sarif_rules()[rule].id},
              {"ruleIndex", rule},
              {"level", sarif_rules()[rule].level},
              {"message", {{"text", message}}},
              {"locations", Json::array({location_json(race.current.site)})},
              {"relatedLocations", std::move(related_locations)},
              {"partialFingerprints", {{kSarifFingerprintKey, race_fingerprint(race)}}},
              {"baselineState", race.known ? "unchanged" : "new"},
              {"properties", properties}};
  if (options.fence_fixes) add_hardening(race, result);
  return result;
}

Json diagnostic_result(const Diagnostic& diagnostic) {
  const size_t rule = sarif_rule_index(diagnostic.kind);
  std::string message = std::string{sarif_rules()[rule].short_description} + " in kernel " + diagnostic.kernel +
                        " (thread " + coord_text(diagnostic.thread.thread) + " of block " +
                        coord_text(diagnostic.thread.block) + ")";
  if (!diagnostic.detail.empty()) message += ": " + diagnostic.detail;
  Json properties{{"kernel", diagnostic.kernel}, {"launchIndex", diagnostic.launch_index}};
  if (diagnostic.pid != 0) properties["pid"] = diagnostic.pid;
  if (diagnostic.perturb_seed != 0) properties["perturb_seed"] = diagnostic.perturb_seed;
  return Json{{"ruleId", sarif_rules()[rule].id},
              {"ruleIndex", rule},
              {"level", sarif_rules()[rule].level},
              {"message", {{"text", message + '.'}}},
              {"locations", Json::array({location_json(diagnostic.site)})},
              {"properties", properties}};
}

Json rules_json() {
  Json rules = Json::array();
  for (const SarifRule& rule : sarif_rules()) {
    rules.push_back(Json{{"id", rule.id},
                         {"name", rule.name},
                         {"shortDescription", {{"text", rule.short_description}}},
                         {"fullDescription", {{"text", rule.help}}},
                         {"help", {{"text", rule.help}}},
                         {"defaultConfiguration", {{"level", rule.level}}}});
  }
  return rules;
}

// What the run could not check: SARIF viewers show these next to the results.
Json notifications_json(const Summary& summary) {
  Json notifications = Json::array();
  for (const SkippedKernel& skipped : summary.kernels_skipped) {
    notifications.push_back(
        Json{{"level", "warning"}, {"message", {{"text", "Not checked: " + skipped.kernel + ": " + skipped.reason}}}});
  }
  if (summary.dropped_events != 0) {
    notifications.push_back(Json{{"level", "warning"},
                                 {"message",
                                  {{"text", std::to_string(summary.dropped_events) +
                                                " events were dropped; races among them may be missed"}}}});
  }
  return notifications;
}

Json invocation_json(const Report& report) {
  std::string command_line;
  for (const std::string& argument : report.run.command_line) {
    command_line += command_line.empty() ? "" : " ";
    command_line += argument;
  }
  Json invocation{{"executionSuccessful", true}, {"commandLine", command_line}, {"arguments", report.run.command_line}};
  if (!report.run.start_time.empty()) invocation["startTimeUtc"] = report.run.start_time;
  invocation["toolExecutionNotifications"] = notifications_json(report.summary);
  return invocation;
}

}  // namespace

Json report_to_sarif(const Report& report, const SarifOptions& options) {
  Json results = Json::array();
  for (const Race& race : report.races) results.push_back(race_result(race, options));
  for (const Diagnostic& diagnostic : report.diagnostics) results.push_back(diagnostic_result(diagnostic));
  Json run{{"tool",
            {{"driver",
              {{"name", "barracuda"},
               {"version", report.run.tool_version},
               {"rules", rules_json()}}}}},
           {"invocations", Json::array({invocation_json(report)})},
           {"originalUriBaseIds", {{kSourceRootId, {{"description", {{"text", "The directory the program was built in"}}}}}}},
           {"results", std::move(results)},
           {"properties",
            {{"deviceName", report.run.device_name}, {"warpModel", name_of(kWarpModelNames, report.run.warp_model)}}}};
  return Json{{"$schema", kSarifSchema}, {"version", "2.1.0"}, {"runs", Json::array({std::move(run)})}};
}

std::string render_sarif(const Report& report, const SarifOptions& options) {
  return report_to_sarif(report, options).dump(2) + '\n';
}

}  // namespace barracuda::report

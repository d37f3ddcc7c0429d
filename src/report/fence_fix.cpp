#include "report/fence_fix.h"

#include <string_view>

#include "barracuda/record_view.h"
#include "report/value_text.h"

namespace barracuda::report {
namespace {

// The engine's text names the fence first: "__threadfence() after the spin on the flag (there is
// none)", or "(__threadfence_block() is too narrow)" where the spin had a fence of too narrow a scope.
constexpr std::string_view kAfterTheSpin = " after the spin";
constexpr std::string_view kTooNarrow = " is too narrow)";

// The scope of a fence the engine names (report_builder.cpp spells them with fence_text).
MemoryScope fence_scope(const std::string& fence) {
  for (MemoryScope scope : {MemoryScope::kCta, MemoryScope::kCluster, MemoryScope::kSystem}) {
    if (fence == fence_text(scope)) return scope;
  }
  return MemoryScope::kGpu;
}

// A fence as a line of CUDA C++: the __threadfence family, or inline PTX for the scopes it lacks.
std::string fence_statement(const std::string& fence) {
  if (fence.starts_with("__threadfence")) return fence + ";";
  return "asm volatile(\"" + fence + ";\" ::: \"memory\");";
}

std::optional<FenceFix> unfenced_acquire_fix(const UnfencedAcquire& unfenced) {
  const size_t end = unfenced.missing_fence.find(kAfterTheSpin);
  if (end == std::string::npos || end == 0) return std::nullopt;  // the engine knew no flag
  const std::string fence = unfenced.missing_fence.substr(0, end);
  FenceFix fix{FenceFix::Kind::kFenceAfter, fence_scope(fence), unfenced.flag, {}, std::nullopt};
  if (unfenced.missing_fence.ends_with(kTooNarrow)) {
    const size_t open = unfenced.missing_fence.find(" (", end) + 2;  // the aside after "the flag"
    const std::string narrow = unfenced.missing_fence.substr(open, unfenced.missing_fence.size() - kTooNarrow.size() - open);
    fix.change = "make the fence after this spin on the flag " + fence + " instead of " + narrow +
                 ": an acquire needs a fence whose scope covers the thread that set the flag";
  } else {
    fix.change = "insert `" + fence_statement(fence) + "` after this spin on the flag: the reads after it " +
                 "then acquire what the flag's writer released";
    fix.inserted_line = fence_statement(fence);
  }
  return fix;
}

// The narrowest scope that covers both threads. The report does not say whether two blocks share a
// cluster, so two blocks need the device.
MemoryScope covering_scope(const Race& race) {
  return race.current.thread.block == race.previous.thread.block ? MemoryScope::kCta : MemoryScope::kGpu;
}

std::string widened_access(const Access& access, MemoryScope needed) {
  const std::string from = memory_scope_name(access.scope);
  const std::string to = memory_scope_name(needed);
  if (access.kind == AccessOperation::kAtomic) {
    return "give this atomic " + to + " scope instead of " + from +
           (needed == MemoryScope::kGpu && access.scope == MemoryScope::kCta
                ? " (atomicAdd instead of atomicAdd_block, and so on; PTX atom.gpu / atom.relaxed.gpu)"
                : " (PTX ." + to + ")") +
           ": its scope must cover both racing threads";
  }
  return "give this " + std::string{memory_semantics_name(access.semantics)} + " " +
         (access.kind == AccessOperation::kWrite ? "store" : "load") + " " + to + " scope instead of " + from +
         " (PTX ." + to + "; cuda::atomic_ref with cuda::thread_scope_" +
         (needed == MemoryScope::kGpu ? "device" : "block") + "): its scope must cover both racing threads";
}

std::vector<FenceFix> scoped_race_fixes(const Race& race) {
  const MemoryScope needed = covering_scope(race);
  std::vector<FenceFix> fixes;
  for (const Access* access : {&race.current, &race.previous}) {
    if (access->semantics == MemorySemantics::kWeak || access->scope >= needed) continue;
    if (!fixes.empty() && fixes.front().site == access->site) continue;  // one instruction, both sides
    fixes.push_back({FenceFix::Kind::kWidenScope, needed, access->site, widened_access(*access, needed), std::nullopt});
  }
  if (!fixes.empty() || race.current.semantics != MemorySemantics::kWeak ||
      race.previous.semantics != MemorySemantics::kWeak) {
    return fixes;
  }
  // Plain accesses ordered only by synchronisation of too narrow a scope: its fences are not in the
  // report, so a fence that covers both threads goes right after the earlier access (before its
  // release) and right before the later one (after its acquire).
  const std::string statement = fence_statement(fence_text(needed));
  fixes.push_back({FenceFix::Kind::kFenceAfter, needed, race.previous.site,
                   "insert `" + statement + "` after this access: what orders it before the other thread's access " +
                       "has too narrow a scope (e.g. __threadfence_block() between blocks); widening that fence is " +
                       "the same fix",
                   statement});
  fixes.push_back({FenceFix::Kind::kFenceBefore, needed, race.current.site,
                   "insert `" + statement + "` before this access: the acquire that orders it after the other " +
                       "thread's access has too narrow a scope; widening that fence is the same fix",
                   statement});
  return fixes;
}

// Message passing through a flag with no fence on either side: a fence before the flag's write makes
// it a release of everything its thread did before, and one after the flag's read an acquire of it.
std::vector<FenceFix> flag_hand_off_fixes(const Race& race) {
  const MemoryScope needed = covering_scope(race);
  const std::string statement = fence_statement(fence_text(needed));
  const FlagHandOff& flag = *race.flag_hand_off;
  return {{FenceFix::Kind::kFenceBefore, needed, flag.write,
           "insert `" + statement + "` before this write of the flag at " + address_text(flag.address) +
               ": the write then releases the data written before it",
           statement},
          {FenceFix::Kind::kFenceAfter, needed, flag.read,
           "insert `" + statement + "` after this read of the flag: the reads after it then acquire what the " +
               "flag's writer released",
           statement}};
}

std::string no_fix_reason(const Race& race) {
  const bool current_plain = race.current.semantics == MemorySemantics::kWeak;
  const bool previous_plain = race.previous.semantics == MemorySemantics::kWeak;
  if (current_plain && previous_plain) {
    return "both accesses are plain: a fence orders one thread's own accesses and cannot order two "
           "unsynchronised threads; synchronise them (a barrier, or a release and an acquire through a flag) "
           "or make the accesses atomic";
  }
  if (current_plain || previous_plain) {
    return "one access is atomic and the other plain: no fence makes them ordered; make the plain access "
           "atomic too, or order the two by synchronisation";
  }
  return "the two strong accesses' scopes already cover both threads: their order is the program's, not a "
         "missing fence";
}

}  // namespace

RaceHardening harden_race(const Race& race) {
  RaceHardening hardening;
  if (race.unfenced_acquire) {
    if (std::optional<FenceFix> fix = unfenced_acquire_fix(*race.unfenced_acquire)) {
      hardening.fixes.push_back(std::move(*fix));
    } else {
      hardening.no_fix_reason = "an acquire fence is missing after a spin on an atomic, but the report does not "
                                "name the spin: " + race.unfenced_acquire->missing_fence;
    }
    return hardening;
  }
  if (race.race_class == RaceClass::kScoped) {
    hardening.fixes = scoped_race_fixes(race);
  } else if (race.flag_hand_off) {
    hardening.fixes = flag_hand_off_fixes(race);
  }
  if (hardening.fixes.empty()) hardening.no_fix_reason = no_fix_reason(race);
  return hardening;
}

}  // namespace barracuda::report

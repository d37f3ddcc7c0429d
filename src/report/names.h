#pragma once
// The one spelling of every report enum: used by the text and SARIF renderers and by the JSON schema
// (so changing a name here is a JSON schema change: bump kReportSchemaVersion).
#include <array>

#include "options/named_enum.h"
#include "report/model.h"

namespace barracuda::report {

inline constexpr std::array<NamedValue<RaceClass>, 5> kRaceClassNames{{
    {RaceClass::kIntraWarp, "intra-warp"},
    {RaceClass::kInterWarp, "inter-warp"},
    {RaceClass::kInterBlock, "inter-block"},
    {RaceClass::kBranchOrdering, "branch-ordering"},
    {RaceClass::kScoped, "scoped"},
}};

inline constexpr std::array<NamedValue<Hazard>, 4> kHazardNames{{
    {Hazard::kReadAfterWrite, "read-after-write"},
    {Hazard::kWriteAfterRead, "write-after-read"},
    {Hazard::kWriteAfterWrite, "write-write"},
    {Hazard::kAtomicPlain, "atomic-plain"},
}};

inline constexpr std::array<NamedValue<MemorySpace>, 4> kMemorySpaceNames{{
    {MemorySpace::kGlobal, "global"},
    {MemorySpace::kShared, "shared"},
    {MemorySpace::kCluster, "cluster"},
    {MemorySpace::kOther, "other"},
}};

inline constexpr std::array<NamedValue<MemoryScope>, 4> kMemoryScopeNames{{
    {MemoryScope::kCta, "cta"},
    {MemoryScope::kCluster, "cluster"},
    {MemoryScope::kGpu, "gpu"},
    {MemoryScope::kSystem, "sys"},
}};

inline constexpr std::array<NamedValue<MemorySemantics>, 8> kMemorySemanticsNames{{
    {MemorySemantics::kWeak, "weak"},
    {MemorySemantics::kRelaxed, "relaxed"},
    {MemorySemantics::kAcquire, "acquire"},
    {MemorySemantics::kRelease, "release"},
    {MemorySemantics::kAcqRel, "acq_rel"},
    {MemorySemantics::kSeqCst, "sc"},
    {MemorySemantics::kVolatile, "volatile"},
    {MemorySemantics::kLegacy, "legacy"},
}};

inline constexpr std::array<NamedValue<AccessKind>, 3> kAccessKindNames{{
    {AccessKind::kRead, "read"},
    {AccessKind::kWrite, "write"},
    {AccessKind::kAtomic, "atomic"},
}};

// Named for the driver entry point that made the memory (cudaMalloc reaches the driver as cuMemAlloc).
inline constexpr std::array<NamedValue<AllocationKind>, 8> kAllocationKindNames{{
    {AllocationKind::kNone, "none"},
    {AllocationKind::kMemAlloc, "cuMemAlloc"},
    {AllocationKind::kMemAllocPitch, "cuMemAllocPitch"},
    {AllocationKind::kMemAllocManaged, "cuMemAllocManaged"},
    {AllocationKind::kMemAllocAsync, "cuMemAllocAsync"},
    {AllocationKind::kMemMap, "cuMemMap"},
    {AllocationKind::kGlobalVariable, "device-variable"},
    {AllocationKind::kShared, "shared"},
}};

inline constexpr std::array<NamedValue<DiagnosticKind>, 2> kDiagnosticKindNames{{
    {DiagnosticKind::kBarrierDivergence, "barrier-divergence"},
    {DiagnosticKind::kRedundantBarrier, "redundant-barrier"},
}};

}  // namespace barracuda::report

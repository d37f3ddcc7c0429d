#pragma once
// The one spelling of every report enum: used by the text and SARIF renderers and by the JSON schema
// (so changing a name here is a JSON schema change: bump kReportSchemaVersion).
#include <array>

#include "barracuda/record_view.h"
#include "options/named_enum.h"
#include "report/model.h"

namespace barracuda::report {

inline constexpr std::array<NamedValue<RaceClass>, 6> kRaceClassNames{{
    {RaceClass::kIntraWarp, "intra-warp"},
    {RaceClass::kInterWarp, "inter-warp"},
    {RaceClass::kInterBlock, "inter-block"},
    {RaceClass::kBranchOrdering, "branch-ordering"},
    {RaceClass::kScoped, "scoped"},
    {RaceClass::kInterDevice, "inter-device"},
}};

inline constexpr std::array<NamedValue<Hazard>, 4> kHazardNames{{
    {Hazard::kReadAfterWrite, "read-after-write"},
    {Hazard::kWriteAfterRead, "write-after-read"},
    {Hazard::kWriteAfterWrite, "write-write"},
    {Hazard::kAtomicPlain, "atomic-plain"},
}};

// The record's fields keep their spelling in the record decoder, so dumps and reports agree.
inline constexpr auto kMemorySpaceNames = dense_named_values<MemorySpace, kMemorySpaceCount>(memory_space_name);
inline constexpr auto kMemoryScopeNames = dense_named_values<MemoryScope, kMemoryScopeCount>(memory_scope_name);
inline constexpr auto kMemorySemanticsNames =
    dense_named_values<MemorySemantics, kMemorySemanticsCount>(memory_semantics_name);

inline constexpr std::array<NamedValue<AccessOperation>, 3> kAccessOperationNames{{
    {AccessOperation::kRead, "read"},
    {AccessOperation::kWrite, "write"},
    {AccessOperation::kAtomic, "atomic"},
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

#pragma once
// The exact PTX each litmus variant executes. Inline asm pins the instruction (and its memory-model
// qualifiers) so that nvcc cannot substitute another form; "memory" clobbers keep nvcc from moving
// accesses across each other (ptxas still may, which is part of what the hardware run measures).

#include <cstdint>

#include "model.h"

namespace litmus {

template <Access A>
__device__ __forceinline__ void store(uint32_t* p, uint32_t v) {
  if constexpr (A == Access::kWeak) {
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else if constexpr (A == Access::kVolatile) {
    asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else if constexpr (A == Access::kRelaxedGpu) {
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else if constexpr (A == Access::kRelAcqGpu) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else if constexpr (A == Access::kRelAcqCta) {
    asm volatile("st.release.cta.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else {
    uint32_t old;
    asm volatile("atom.relaxed.gpu.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  }
}

template <Access A>
__device__ __forceinline__ uint32_t load(const uint32_t* p) {
  uint32_t v;
  if constexpr (A == Access::kWeak) {
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else if constexpr (A == Access::kVolatile) {
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else if constexpr (A == Access::kRelaxedGpu) {
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else if constexpr (A == Access::kRelAcqGpu) {
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else if constexpr (A == Access::kRelAcqCta) {
    asm volatile("ld.acquire.cta.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else {
    asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 0;" : "=r"(v) : "l"(p) : "memory");
  }
  return v;
}

template <Fence F>
__device__ __forceinline__ void fence() {
  if constexpr (F == Fence::kMembarCta) {
    asm volatile("membar.cta;" ::: "memory");
  } else if constexpr (F == Fence::kMembarGl) {
    asm volatile("membar.gl;" ::: "memory");
  } else if constexpr (F == Fence::kAcqRelCta) {
    asm volatile("fence.acq_rel.cta;" ::: "memory");
  } else if constexpr (F == Fence::kAcqRelGpu) {
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
  } else if constexpr (F == Fence::kScCta) {
    asm volatile("fence.sc.cta;" ::: "memory");
  } else if constexpr (F == Fence::kScGpu) {
    asm volatile("fence.sc.gpu;" ::: "memory");
  }
}

}  // namespace litmus

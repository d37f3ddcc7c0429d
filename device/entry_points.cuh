#pragma once
// The device runtime's entry points: what instrumented PTX calls (the instrumentation passes declare
// the same functions as `.extern .func`), declared from the one list both sides use
// (barracuda/runtime_entry_points.inc, where each is described). All are extern "C" and __noinline__
// so their PTX names and parameter lists stay exactly as listed; parameters are plain scalars.

#include <stdint.h>

extern "C" {
#define BARRACUDA_RUNTIME_ENTRY(function, symbol, parameters, ptx_types) __device__ __noinline__ void symbol parameters;
#include "barracuda/runtime_entry_points.inc"
#undef BARRACUDA_RUNTIME_ENTRY
}  // extern "C"

#pragma once
// BARRACUDA_DCHECK(condition): an invariant of barracuda's own code (never a property of its input:
// malformed records, PTX or binaries get errors, not checks). Checked in debug and sanitizer builds,
// where BARRACUDA_DCHECKS is defined, which print the failed condition and abort; compiled out, with
// the condition unevaluated, elsewhere.
#include <cstdio>
#include <cstdlib>

namespace barracuda {

[[noreturn]] inline void dcheck_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "barracuda: internal check failed: %s (%s:%d)\n", condition, file, line);
  std::abort();
}

}  // namespace barracuda

#if defined(BARRACUDA_DCHECKS)
#define BARRACUDA_DCHECK(condition) \
  ((condition) ? static_cast<void>(0) : ::barracuda::dcheck_failed(#condition, __FILE__, __LINE__))
#else
#define BARRACUDA_DCHECK(condition) static_cast<void>(sizeof(static_cast<bool>(condition)))
#endif

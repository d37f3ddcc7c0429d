#pragma once
// Knobs of the randomised tests (trace counts, a seed to rerun) read from the environment.
#include <cstdint>
#include <cstdlib>

namespace barracuda::test {

// The unsigned value of environment variable `name`, or `fallback` when it is not set.
inline uint64_t env_or(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value ? std::strtoull(value, nullptr, 10) : fallback;
}

}  // namespace barracuda::test

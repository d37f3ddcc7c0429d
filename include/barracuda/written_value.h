#pragma once
// The value of a uniform store (every lane of its warp group stored one value to one address) as the
// device's shadow words keep it beside the stamp of the write (barracuda/shared_check.h,
// barracuda/global_check.h), so that a write-write race between two such stores of one value is told
// apart (the same-value warning class). Header-only, no std:: types: compiled by nvcc and g++ alike.
//
// The stamp is swapped in with one atomic and the value published after it with another, so a
// concurrent writer can see a stamp whose value is not there yet: a flag eight warps set to 1 was then
// compared with the value of an earlier write and reported as a race of two different values. The
// value is therefore kept tagged with a fold of its write's stamp; a value whose tag is not the stamp's
// says nothing about that write (the device waits a moment for it, then takes the values as different:
// a race is never made a warning by a value it could not see).
#include <stdint.h>

namespace barracuda {

// 32 bits folded from a stamp, never 0 (0 stands for "no value kept"). Two stamps fold alike with
// probability about 2^-31.
constexpr uint32_t written_value_tag(uint64_t stamp) {
  return static_cast<uint32_t>((stamp * 0x9E3779B97F4A7C15ull) >> 32) | 0x80000000u;
}
// What the shadow keeps for a uniform store of `value` whose write has `stamp`.
constexpr uint64_t kept_written_value(uint64_t stamp, uint32_t value) {
  return uint64_t{written_value_tag(stamp)} << 32 | value;
}
// Whether `kept` is the value of the write stamped `stamp`.
constexpr bool written_value_of(uint64_t kept, uint64_t stamp) {
  return stamp != 0 && (kept >> 32) == written_value_tag(stamp);
}

}  // namespace barracuda

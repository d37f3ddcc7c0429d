#pragma once
// Field-by-field equality of two entries, as the round-trip tests need it (offsets and stored sizes
// differ between a container and its rewrite; everything decoded must not).
#include <gtest/gtest.h>

#include "fatbin/entry.h"
#include "fatbin/format.h"

namespace barracuda::fatbin::testing {

inline void expect_same_entry(const Entry& read, const Entry& written) {
  EXPECT_EQ(read.kind, written.kind);
  EXPECT_EQ(read.arch, written.arch);
  EXPECT_EQ(read.version, written.version);
  EXPECT_EQ(read.flags & ~flag::kCompressionMask, written.flags & ~flag::kCompressionMask);
  EXPECT_EQ(read.compression, written.compression);
  EXPECT_EQ(read.name, written.name);
  EXPECT_EQ(read.ptxas_options, written.ptxas_options);
  EXPECT_EQ(read.payload, written.payload);
  EXPECT_EQ(read.opaque, written.opaque);
}

}  // namespace barracuda::fatbin::testing

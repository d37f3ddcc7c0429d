#pragma once
// Reading fat-binary containers (magic 0xBA55ED50) and the sections that hold several of them.
#include <cstdint>
#include <functional>
#include <vector>

#include "fatbin/byte_view.h"
#include "fatbin/entry.h"

namespace barracuda::fatbin {

struct Container {
  std::uint64_t offset = 0;  // of the container header, in the frame it was read from
  std::uint64_t size = 0;    // header and entries
  std::vector<Entry> entries;
};

// The container starting at `offset` in `bytes`; every entry decoded and decompressed.
Container read_container(const ByteView& bytes, std::uint64_t offset = 0);

// Every container of a section such as .nv_fatbin: back to back, each 8-aligned, zero padding between.
std::vector<Container> read_containers(const ByteView& bytes);

// The same, one container at a time, so that only one container's decompressed payloads are alive at
// once (all of libcublasLt's take 1.5 GB).
void for_each_container(const ByteView& bytes, const std::function<void(Container&&)>& visit);

// Bytes of the container header at `offset` plus its entries, from the header alone.
std::uint64_t container_extent(const ByteView& bytes, std::uint64_t offset = 0);

}  // namespace barracuda::fatbin

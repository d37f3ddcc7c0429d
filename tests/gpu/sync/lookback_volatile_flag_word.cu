// A decoupled look-back scan in CUB's onesweep style: each block publishes its tile's aggregate and a
// status in one word, `flags[tile] = aggregate << 2 | PARTIAL`, with a volatile store and no fence;
// later blocks spin on that word with volatile loads until it is non-zero and use the value they spun
// on (no other data goes through it), then publish their inclusive prefix the same way. Under the PTX
// model (volatile = relaxed.sys) the stores and the spins are morally strong: race-free. Tiles are
// handed out in launch order by an atomic ticket, so a block waits only on blocks that are running.
#include "suite.cuh"

constexpr unsigned kPartial = 1, kInclusive = 2;
constexpr int kTiles = 8, kThreads = 32;

__global__ void scan(const unsigned* in, volatile unsigned* flags, unsigned* out, unsigned* ticket) {
  __shared__ int tile_of_block;
  if (threadIdx.x == 0) tile_of_block = atomicAdd(ticket, 1u);
  __syncthreads();
  const int tile = tile_of_block;
  unsigned aggregate = in[tile * kThreads + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) aggregate += __shfl_down_sync(~0u, aggregate, offset);
  if (threadIdx.x != 0) return;
  flags[tile] = aggregate << 2 | kPartial;
  unsigned exclusive = 0;
  for (int j = tile - 1; j >= 0; --j) {
    unsigned word;
    do {
      __threadfence_block();  // as CUB: keeps the load in the loop
      word = flags[j];
    } while (word == 0);
    exclusive += word >> 2;
    if (word & kInclusive) break;
  }
  flags[tile] = (exclusive + aggregate) << 2 | kInclusive;
  out[tile] = exclusive;
}

int main() {
  unsigned host[kTiles * kThreads];
  for (int i = 0; i < kTiles * kThreads; ++i) host[i] = i % 3;
  unsigned* in = zeroed<unsigned>(kTiles * kThreads);
  CHECK(cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice));
  unsigned* flags = zeroed<unsigned>(kTiles);
  unsigned* out = zeroed<unsigned>(kTiles);
  unsigned* ticket = zeroed<unsigned>(1);
  scan<<<kTiles, kThreads>>>(in, flags, out, ticket);
  return finish("lookback_volatile_flag_word", fetch(out + kTiles - 1));
}
// EXPECT: no-race

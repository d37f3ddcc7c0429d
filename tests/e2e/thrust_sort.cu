// thrust::sort (CUB's radix sort underneath) on a million keys: race-free; whatever CUB's own barriers
// do is the toolkit's business, so no diagnostic located in its headers is reported by default.
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#include <cstdio>
#include <vector>

int main() {
  constexpr int kKeys = 1 << 20;
  std::vector<unsigned> keys(kKeys);
  for (int i = 0; i < kKeys; ++i) keys[i] = static_cast<unsigned>(i) * 2654435761u;
  thrust::device_vector<unsigned> device_keys(keys.begin(), keys.end());
  thrust::sort(device_keys.begin(), device_keys.end());
  const unsigned first = device_keys.front(), last = device_keys.back();
  std::printf("sorted %d keys: first %u, last %u\n", kKeys, first, last);
  return 0;
}

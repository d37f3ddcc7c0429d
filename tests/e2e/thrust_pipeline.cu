// A thrust pipeline on a million elements (transform, sort, reduce, exclusive_scan, is_sorted), as in
// issue "Performance I": a module of many template kernels, few of them launched. Race-free; its JIT
// time is what `barracuda run -v` reports ("module N compiled in S s").
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>
#include <vector>

struct Scramble {
  __host__ __device__ unsigned operator()(unsigned x) const { return x * 2654435761u + 12345u; }
};

int main() {
  constexpr int kCount = 1 << 20;
  std::vector<unsigned> values(kCount);
  for (int i = 0; i < kCount; ++i) values[i] = static_cast<unsigned>(i);
  thrust::device_vector<unsigned> data(values.begin(), values.end());
  thrust::transform(data.begin(), data.end(), data.begin(), Scramble{});
  thrust::sort(data.begin(), data.end());
  const bool sorted = thrust::is_sorted(data.begin(), data.end());
  thrust::device_vector<unsigned> low_bits(kCount);
  thrust::transform(data.begin(), data.end(), low_bits.begin(), [] __device__(unsigned x) { return x & 0xFFu; });
  const unsigned long long total =
      thrust::reduce(low_bits.begin(), low_bits.end(), 0ull, thrust::plus<unsigned long long>());
  thrust::exclusive_scan(low_bits.begin(), low_bits.end(), low_bits.begin());
  const unsigned last_offset = low_bits.back();
  std::printf("thrust_pipeline: sorted %s, sum of low bytes %llu, last offset %u\n", sorted ? "yes" : "no", total,
              last_offset);
  return sorted ? 0 : 1;
}

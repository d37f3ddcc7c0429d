// Corpus kernels: CUB device-wide algorithms and block primitives (thousands of template
// instantiations; the bulk of the corpus). Host code exists only to instantiate the kernels.
#include <cub/cub.cuh>

template <typename T>
void device_algorithms(T* in, T* out, int* flags, int* count, int n, cudaStream_t stream) {
  void* temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, stream);
  cub::DeviceReduce::Max(temp, bytes, in, out, n, stream);
  cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream);
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream);
  cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, sizeof(T) * 8, stream);
  cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, count, n, stream);
  cub::DeviceSelect::Unique(temp, bytes, in, out, count, n, stream);
}

template void device_algorithms<int>(int*, int*, int*, int*, int, cudaStream_t);
template void device_algorithms<float>(float*, float*, int*, int*, int, cudaStream_t);

void histogram(const unsigned char* samples, int* bins, int n, cudaStream_t stream) {
  void* temp = nullptr;
  size_t bytes = 0;
  cub::DeviceHistogram::HistogramEven(temp, bytes, samples, bins, 257, 0, 256, n, stream);
}

template <int Threads, int Items>
__global__ void block_primitives(int* data) {
  using Load = cub::BlockLoad<int, Threads, Items, cub::BLOCK_LOAD_TRANSPOSE>;
  using Scan = cub::BlockScan<int, Threads>;
  using Reduce = cub::BlockReduce<int, Threads>;
  using Sort = cub::BlockRadixSort<int, Threads, Items>;
  using Store = cub::BlockStore<int, Threads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
    typename Sort::TempStorage sort;
    typename Store::TempStorage store;
  } storage;
  int items[Items];
  Load(storage.load).Load(data + blockIdx.x * Threads * Items, items);
  __syncthreads();
  Scan(storage.scan).ExclusiveSum(items, items);
  __syncthreads();
  int total = Reduce(storage.reduce).Sum(items);
  __syncthreads();
  Sort(storage.sort).Sort(items);
  __syncthreads();
  items[0] += total;
  Store(storage.store).Store(data + blockIdx.x * Threads * Items, items);
}

template __global__ void block_primitives<128, 4>(int*);
template __global__ void block_primitives<256, 8>(int*);

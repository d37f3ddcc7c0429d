// A time-stepped two-field reaction-diffusion simulation on a ring whose step is recorded once by
// stream capture and replayed as a CUDA graph, as simulation codes do to cut launch overhead. The
// captured step forks onto a second stream (the two fields update concurrently), joins, forks again
// for the two copies back, joins, and appends the step's field sums to a statistics log.
// APP-EXPECT: clean
#include <cstdio>
#include <vector>

#include "app_check.cuh"

constexpr int kCells = 1 << 15;
constexpr int kThreads = 256;
constexpr int kSteps = 12;

// Only multiplications by powers of two: the results are the same whether or not the compiler fuses
// a multiply and an add, so the host reference below matches bit for bit.
__host__ __device__ inline float next_u(float left, float mid, float right, float v) {
  return mid + (left - 2.0f * mid + right) * 0.25f - v * 0.125f;
}
__host__ __device__ inline float next_v(float left, float mid, float right, float u) {
  return mid + (left - 2.0f * mid + right) * 0.125f + u * 0.0625f;
}

__global__ void update_u(const float* u, const float* v, float* u_next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u_next[i] = next_u(u[(i + n - 1) % n], u[i], u[(i + 1) % n], v[i]);
}

__global__ void update_v(const float* u, const float* v, float* v_next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v_next[i] = next_v(v[(i + n - 1) % n], v[i], v[(i + 1) % n], u[i]);
}

// One block: appends (sum u, sum v) to log[*step] and advances *step.
__global__ void log_sums(const float* u, const float* v, int n, float2* log, int* step) {
  __shared__ float su[kThreads], sv[kThreads];
  float a = 0.0f, b = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    a += u[i];
    b += v[i];
  }
  su[threadIdx.x] = a;
  sv[threadIdx.x] = b;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      su[threadIdx.x] += su[threadIdx.x + stride];
      sv[threadIdx.x] += sv[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    log[*step] = make_float2(su[0], sv[0]);
    *step += 1;
  }
}

int main() {
  std::vector<float> u(kCells), v(kCells);
  for (int i = 0; i < kCells; ++i) {
    u[i] = (i % 64 < 8) ? 4.0f : 0.0f;
    v[i] = static_cast<float>((i * 7) % 5);
  }
  float *du, *dv, *du_next, *dv_next;
  float2* dlog;
  int* dstep;
  const size_t bytes = kCells * sizeof(float);
  CUDA_CHECK(cudaMalloc(&du, bytes));
  CUDA_CHECK(cudaMalloc(&dv, bytes));
  CUDA_CHECK(cudaMalloc(&du_next, bytes));
  CUDA_CHECK(cudaMalloc(&dv_next, bytes));
  CUDA_CHECK(cudaMalloc(&dlog, kSteps * sizeof(float2)));
  CUDA_CHECK(cudaMalloc(&dstep, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(du, u.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dv, v.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dstep, 0, sizeof(int)));

  cudaStream_t main_stream, side_stream, launch_stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&side_stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&launch_stream, cudaStreamNonBlocking));
  cudaEvent_t fork_update, join_update, fork_copy, join_copy;
  CUDA_CHECK(cudaEventCreateWithFlags(&fork_update, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&join_update, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&fork_copy, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&join_copy, cudaEventDisableTiming));

  const int blocks = kCells / kThreads;
  CUDA_CHECK(cudaStreamBeginCapture(main_stream, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaEventRecord(fork_update, main_stream));
  CUDA_CHECK(cudaStreamWaitEvent(side_stream, fork_update));
  update_u<<<blocks, kThreads, 0, main_stream>>>(du, dv, du_next, kCells);
  update_v<<<blocks, kThreads, 0, side_stream>>>(du, dv, dv_next, kCells);
  CUDA_CHECK(cudaEventRecord(join_update, side_stream));
  CUDA_CHECK(cudaStreamWaitEvent(main_stream, join_update));
  CUDA_CHECK(cudaEventRecord(fork_copy, main_stream));
  CUDA_CHECK(cudaStreamWaitEvent(side_stream, fork_copy));
  CUDA_CHECK(cudaMemcpyAsync(du, du_next, bytes, cudaMemcpyDeviceToDevice, main_stream));
  CUDA_CHECK(cudaMemcpyAsync(dv, dv_next, bytes, cudaMemcpyDeviceToDevice, side_stream));
  CUDA_CHECK(cudaEventRecord(join_copy, side_stream));
  CUDA_CHECK(cudaStreamWaitEvent(main_stream, join_copy));
  log_sums<<<1, kThreads, 0, main_stream>>>(du, dv, kCells, dlog, dstep);
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamEndCapture(main_stream, &graph));
  size_t node_count = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &node_count));
  cudaGraphExec_t step;
  CUDA_CHECK(cudaGraphInstantiate(&step, graph, 0));
  for (int s = 0; s < kSteps; ++s) CUDA_CHECK(cudaGraphLaunch(step, launch_stream));
  CUDA_CHECK(cudaStreamSynchronize(launch_stream));

  std::vector<float2> log(kSteps);
  std::vector<float> gu(kCells), gv(kCells);
  int steps_logged = 0;
  CUDA_CHECK(cudaMemcpy(log.data(), dlog, kSteps * sizeof(float2), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gu.data(), du, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gv.data(), dv, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&steps_logged, dstep, sizeof(int), cudaMemcpyDeviceToHost));

  for (int s = 0; s < kSteps; ++s) {
    std::vector<float> un(kCells), vn(kCells);
    for (int i = 0; i < kCells; ++i) {
      un[i] = next_u(u[(i + kCells - 1) % kCells], u[i], u[(i + 1) % kCells], v[i]);
      vn[i] = next_v(v[(i + kCells - 1) % kCells], v[i], v[(i + 1) % kCells], u[i]);
    }
    u.swap(un);
    v.swap(vn);
  }
  int mismatches = 0;
  for (int i = 0; i < kCells; ++i) mismatches += gu[i] != u[i] || gv[i] != v[i];

  std::printf("captured graph: %zu nodes, launched %d times, %d steps logged\n", node_count, kSteps, steps_logged);
  for (int s = 0; s < kSteps; ++s) std::printf("step %2d: sum u %.4f, sum v %.4f\n", s + 1, log[s].x, log[s].y);
  std::printf("final fields: %d cells differ from the host reference\n", mismatches);

  CUDA_CHECK(cudaGraphExecDestroy(step));
  CUDA_CHECK(cudaGraphDestroy(graph));
  for (cudaEvent_t e : {fork_update, join_update, fork_copy, join_copy}) CUDA_CHECK(cudaEventDestroy(e));
  for (cudaStream_t s : {main_stream, side_stream, launch_stream}) CUDA_CHECK(cudaStreamDestroy(s));
  for (void* p : {static_cast<void*>(du), static_cast<void*>(dv), static_cast<void*>(du_next),
                  static_cast<void*>(dv_next), static_cast<void*>(dlog), static_cast<void*>(dstep)}) {
    CUDA_CHECK(cudaFree(p));
  }
  return mismatches == 0 && steps_logged == kSteps ? 0 : 1;
}

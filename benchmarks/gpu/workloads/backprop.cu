// backprop (Rodinia-style): one training step of a 2-layer perceptron with a very wide input layer.
// layer_forward: each 16x16 block multiplies 16 inputs by their 16 hidden weights in shared memory and
// tree-reduces over the inputs (a barrier per level); reduce_hidden sums the per-block partials;
// output_deltas back-propagates the error; adjust_weights applies the momentum update.
// Check: full CPU reference (double sums for the forward pass, float update).
// Timed: `repetitions` training steps, each from the same weights (the update writes new buffers).
#include <cmath>
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr int kInputs = 1 << 20;
constexpr int kHidden = 16;  // also the side of a layer_forward block
constexpr int kForwardBlocks = kInputs / kHidden;
constexpr int kReduceThreads = 256;
constexpr float kLearningRate = 0.3f;
constexpr float kMomentum = 0.3f;
constexpr float kTarget = 0.1f;
constexpr int kRepetitionsAtFullScale = 1000;

__host__ __device__ float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

__global__ void layer_forward(const float* input, const float* weights, float* partial_sums) {
  __shared__ float input_node[kHidden];
  __shared__ float products[kHidden][kHidden];
  const int row = threadIdx.y;  // input within the block
  const int col = threadIdx.x;  // hidden unit
  const int input_index = blockIdx.x * kHidden + row;
  if (col == 0) input_node[row] = input[input_index];
  __syncthreads();
  products[row][col] = weights[input_index * kHidden + col] * input_node[row];
  __syncthreads();
  for (int stride = 1; stride < kHidden; stride *= 2) {
    if (row % (2 * stride) == 0) products[row][col] += products[row + stride][col];
    __syncthreads();
  }
  if (row == 0) partial_sums[blockIdx.x * kHidden + col] = products[0][col];
}

// One block per hidden unit.
__global__ void reduce_hidden(const float* partial_sums, float* hidden) {
  __shared__ float sums[kReduceThreads];
  const int unit = blockIdx.x;
  float sum = 0;
  for (int b = threadIdx.x; b < kForwardBlocks; b += kReduceThreads) sum += partial_sums[b * kHidden + unit];
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kReduceThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) hidden[unit] = sigmoid(sums[0]);
}

__host__ __device__ float hidden_delta(const float* hidden, const float* output_weights, int unit) {
  float sum = 0;
  for (int j = 0; j < kHidden; ++j) sum += hidden[j] * output_weights[j];
  const float out = sigmoid(sum);
  const float output_delta = out * (1.0f - out) * (kTarget - out);
  return hidden[unit] * (1.0f - hidden[unit]) * output_delta * output_weights[unit];
}

// One thread per hidden unit.
__global__ void output_deltas(const float* hidden, const float* output_weights, float* deltas) {
  deltas[threadIdx.x] = hidden_delta(hidden, output_weights, threadIdx.x);
}

__host__ __device__ void adjust(float weight, float old_change, float delta, float input, float* new_weight,
                                float* new_change) {
  const float change = kLearningRate * delta * input + kMomentum * old_change;
  *new_weight = weight + change;
  *new_change = change;
}

__global__ void adjust_weights(const float* input, const float* deltas, const float* weights,
                               const float* old_changes, float* new_weights, float* new_changes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kInputs * kHidden) return;
  adjust(weights[i], old_changes[i], deltas[i % kHidden], input[i / kHidden], &new_weights[i],
         &new_changes[i]);
}

struct Reference {
  std::vector<float> hidden;
  std::vector<float> weights;
};

Reference train_on_cpu(const std::vector<float>& input, const std::vector<float>& weights,
                       const std::vector<float>& old_changes, const std::vector<float>& output_weights) {
  Reference ref{std::vector<float>(kHidden), std::vector<float>(weights.size())};
  std::vector<double> sums(kHidden, 0.0);
  for (int i = 0; i < kInputs; ++i) {
    for (int j = 0; j < kHidden; ++j) sums[j] += double(weights[i * kHidden + j]) * input[i];
  }
  for (int j = 0; j < kHidden; ++j) ref.hidden[j] = sigmoid(static_cast<float>(sums[j]));
  std::vector<float> deltas(kHidden);
  for (int j = 0; j < kHidden; ++j) deltas[j] = hidden_delta(ref.hidden.data(), output_weights.data(), j);
  float unused_change;
  for (int i = 0; i < kInputs * kHidden; ++i) {
    adjust(weights[i], old_changes[i], deltas[i % kHidden], input[i / kHidden], &ref.weights[i],
           &unused_change);
  }
  return ref;
}

}  // namespace

namespace bench {

const char* const workload_name = "backprop";

Outcome run_workload(const Options& options) {
  Random random(2);
  std::vector<float> input(kInputs), weights(kInputs * kHidden), old_changes(weights.size()),
      output_weights(kHidden);
  for (auto& x : input) x = random.uniform(0.0f, 1.0f);
  for (auto& w : weights) w = random.uniform(-0.01f, 0.01f);
  for (auto& c : old_changes) c = random.uniform(-0.001f, 0.001f);
  for (auto& w : output_weights) w = random.uniform(-1.0f, 1.0f);

  DeviceBuffer<float> dev_input(input), dev_weights(weights), dev_old_changes(old_changes),
      dev_output_weights(output_weights), partial_sums(kForwardBlocks * kHidden), hidden(kHidden),
      deltas(kHidden), new_weights(weights.size()), new_changes(weights.size());
  const int adjust_threads = 256;
  const int adjust_blocks = (kInputs * kHidden + adjust_threads - 1) / adjust_threads;
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    layer_forward<<<kForwardBlocks, dim3(kHidden, kHidden)>>>(dev_input.get(), dev_weights.get(),
                                                              partial_sums.get());
    reduce_hidden<<<kHidden, kReduceThreads>>>(partial_sums.get(), hidden.get());
    output_deltas<<<1, kHidden>>>(hidden.get(), dev_output_weights.get(), deltas.get());
    adjust_weights<<<adjust_blocks, adjust_threads>>>(dev_input.get(), deltas.get(), dev_weights.get(),
                                                      dev_old_changes.get(), new_weights.get(),
                                                      new_changes.get());
  });
  check_kernel("backprop kernels");

  const Reference want = train_on_cpu(input, weights, old_changes, output_weights);
  std::string failure = compare_close("hidden", hidden.download(), want.hidden, 1e-4f, 1e-5f);
  if (failure.empty()) failure = compare_close("weights", new_weights.download(), want.weights, 1e-4f, 2e-6f);
  return {ms, failure};
}

}  // namespace bench

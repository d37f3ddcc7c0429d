// A tone classifier, the shape of many signal-processing pipelines that mix library calls with their
// own kernels on one stream: user kernels synthesise a batch of signals, cuFFT transforms them
// (cufftExecC2C), user kernels extract spectral features and low-pass the spectrum between cuFFT
// calls, the inverse transform and a user kernel measure the low band, cuBLAS scores the features
// against per-class templates (cublasSgemm) and a last user kernel picks each signal's class. Features
// and levels are rounded to the integers the signals were built from, so the output is exact.
// APP-EXPECT: clean
// APP-UNCHECKED: no PTX for sm_90
#include <cublas_v2.h>
#include <cufft.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "app_check.cuh"

#define CUFFT_CHECK(call)                                                               \
  do {                                                                                  \
    cufftResult status_ = (call);                                                       \
    if (status_ != CUFFT_SUCCESS) {                                                     \
      std::fprintf(stderr, "%s:%d: %s: cuFFT error %d\n", __FILE__, __LINE__, #call,   \
                   static_cast<int>(status_));                                          \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)
#define CUBLAS_CHECK(call)                                                              \
  do {                                                                                  \
    cublasStatus_t status_ = (call);                                                    \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                             \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS error %d\n", __FILE__, __LINE__, #call,  \
                   static_cast<int>(status_));                                          \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

constexpr int kLength = 1024;
constexpr int kSignals = 64;
constexpr int kClasses = 8;
constexpr int kFeatures = 32;  // spectral bins 1..32
constexpr int kCutoff = 48;    // the low pass keeps bins up to this one

// The tones of signal `s`: three in the feature band that depend on its class, one interference tone
// far above the cutoff, and a DC offset.
struct Tones {
  int bin[4];
  int amplitude[4];
  int offset;
};
__host__ __device__ Tones tones_of(int s) {
  const int c = s % kClasses;
  return {{2 + c, 10 + 2 * c, 20 + c, 200 + s}, {3, 2, 1 + (s / kClasses) % 3, 5}, s % 4};
}

__global__ void synthesise(cufftComplex* signals) {
  const int s = blockIdx.y;
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  const Tones t = tones_of(s);
  float value = static_cast<float>(t.offset);
  for (int k = 0; k < 4; ++k) {
    const int phase = (t.bin[k] * n) % kLength;  // exact argument: cos(2 pi phase / L)
    value += t.amplitude[k] * cospif(2.0f * phase / kLength);
  }
  signals[s * kLength + n] = make_cuComplex(value, 0.0f);
}

// features[f * kSignals + s] (column-major, for cuBLAS) = amplitude of bin f + 1 of signal s.
__global__ void extract_features(const cufftComplex* spectra, float* features) {
  const int s = blockIdx.x;
  const int f = threadIdx.x;
  const cufftComplex x = spectra[s * kLength + f + 1];
  features[f * kSignals + s] = rintf(2.0f * hypotf(x.x, x.y) / kLength);
}

__global__ void low_pass(cufftComplex* spectra) {
  const int s = blockIdx.y;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k > kCutoff && k < kLength - kCutoff) spectra[s * kLength + k] = make_cuComplex(0.0f, 0.0f);
}

// After the unnormalised inverse transform: the low band's value at t = 0, rounded.
__global__ void low_band_level(const cufftComplex* signals, int* level) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < kSignals) level[s] = static_cast<int>(rintf(signals[s * kLength].x / kLength));
}

// scores is kSignals x kClasses, column-major; the best class (lowest index among equals) per signal.
__global__ void classify(const float* scores, int* label) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= kSignals) return;
  int best = 0;
  for (int c = 1; c < kClasses; ++c) best = scores[c * kSignals + s] > scores[best * kSignals + s] ? c : best;
  label[s] = best;
}

int main() {
  // Templates: class c weighs its own three bins (column-major kFeatures x kClasses).
  std::vector<float> templates(kFeatures * kClasses, 0.0f);
  for (int c = 0; c < kClasses; ++c) {
    const Tones t = tones_of(c);
    for (int k = 0; k < 3; ++k) templates[c * kFeatures + t.bin[k] - 1] = static_cast<float>(3 - k);
  }
  cufftComplex* signals;
  float *features, *weights, *scores;
  int *levels, *labels;
  CUDA_CHECK(cudaMalloc(&signals, kSignals * kLength * sizeof(cufftComplex)));
  CUDA_CHECK(cudaMalloc(&features, kFeatures * kSignals * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&weights, templates.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&scores, kSignals * kClasses * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&levels, kSignals * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&labels, kSignals * sizeof(int)));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaMemcpyAsync(weights, templates.data(), templates.size() * sizeof(float), cudaMemcpyHostToDevice,
                             stream));
  cufftHandle plan;
  CUFFT_CHECK(cufftPlan1d(&plan, kLength, CUFFT_C2C, kSignals));
  CUFFT_CHECK(cufftSetStream(plan, stream));
  cublasHandle_t blas;
  CUBLAS_CHECK(cublasCreate(&blas));
  CUBLAS_CHECK(cublasSetStream(blas, stream));

  synthesise<<<dim3(kLength / 256, kSignals), 256, 0, stream>>>(signals);
  CUFFT_CHECK(cufftExecC2C(plan, signals, signals, CUFFT_FORWARD));
  extract_features<<<kSignals, kFeatures, 0, stream>>>(signals, features);
  low_pass<<<dim3(kLength / 256, kSignals), 256, 0, stream>>>(signals);
  CUFFT_CHECK(cufftExecC2C(plan, signals, signals, CUFFT_INVERSE));
  low_band_level<<<1, kSignals, 0, stream>>>(signals, levels);
  const float one = 1.0f, zero = 0.0f;
  CUBLAS_CHECK(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, kSignals, kClasses, kFeatures, &one, features, kSignals,
                           weights, kFeatures, &zero, scores, kSignals));
  classify<<<1, kSignals, 0, stream>>>(scores, labels);
  CUDA_CHECK(cudaGetLastError());

  std::vector<float> host_features(kFeatures * kSignals), host_scores(kSignals * kClasses);
  std::vector<int> host_levels(kSignals), host_labels(kSignals);
  CUDA_CHECK(cudaMemcpyAsync(host_features.data(), features, host_features.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemcpyAsync(host_scores.data(), scores, host_scores.size() * sizeof(float), cudaMemcpyDeviceToHost,
                             stream));
  CUDA_CHECK(cudaMemcpyAsync(host_levels.data(), levels, kSignals * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemcpyAsync(host_labels.data(), labels, kSignals * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  int feature_mismatches = 0, level_mismatches = 0, correct = 0;
  double score_sum = 0.0;
  for (int s = 0; s < kSignals; ++s) {
    const Tones t = tones_of(s);
    std::vector<float> expected(kFeatures, 0.0f);
    int low_band = t.offset;
    for (int k = 0; k < 4; ++k) {
      if (t.bin[k] <= kFeatures) expected[t.bin[k] - 1] += static_cast<float>(t.amplitude[k]);
      if (t.bin[k] <= kCutoff) low_band += t.amplitude[k];
    }
    for (int f = 0; f < kFeatures; ++f) feature_mismatches += host_features[f * kSignals + s] != expected[f];
    level_mismatches += host_levels[s] != low_band;
    correct += host_labels[s] == s % kClasses;
    for (int c = 0; c < kClasses; ++c) score_sum += host_scores[c * kSignals + s] * (c + 1);
  }
  std::printf("%d signals of %d samples: %d feature values and %d low-band levels differ from the construction\n",
              kSignals, kLength, feature_mismatches, level_mismatches);
  std::printf("template scores: weighted sum %.1f\n", score_sum);
  std::printf("labels:");
  for (int s = 0; s < kSignals; ++s) std::printf(" %d", host_labels[s]);
  std::printf("\n%d of %d signals classified as the class that generated them\n", correct, kSignals);

  CUBLAS_CHECK(cublasDestroy(blas));
  CUFFT_CHECK(cufftDestroy(plan));
  CUDA_CHECK(cudaStreamDestroy(stream));
  for (void* p : {static_cast<void*>(signals), static_cast<void*>(features), static_cast<void*>(weights),
                  static_cast<void*>(scores), static_cast<void*>(levels), static_cast<void*>(labels)}) {
    CUDA_CHECK(cudaFree(p));
  }
  return feature_mismatches == 0 && level_mismatches == 0 ? 0 : 1;
}

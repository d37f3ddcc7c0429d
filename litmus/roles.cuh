#pragma once
// The threads of each litmus test. `res` holds the values the observing threads read, initialised to
// 0xffffffff by the host so that "not run" is never mistaken for an outcome.

#include "access.cuh"

namespace litmus {

// Bound on MP's wait for the flag in detector runs: plain loads of the flag may never see the store (the
// variant is racy anyway), and the wait must end.
inline constexpr int kFlagWaitLoads = 1 << 16;

// `await_flag` (detector runs): MP's reader re-reads the flag until it is set before it reads the
// payload, so that the run is the execution in which the flag could synchronise (litmus/README.md).
template <LitmusTest T, Access D, Access S, Fence F>
__device__ __forceinline__ void run_role(int role, uint32_t* x, uint32_t* y, uint32_t* res, bool await_flag) {
  if constexpr (T == LitmusTest::kMP) {  // x = payload, y = flag
    if (role == 0) {
      store<D>(x, 1);
      fence<F>();
      store<S>(y, 1);
    } else {
      uint32_t flag = load<S>(y);
      for (int n = 1; await_flag && flag != 1 && n < kFlagWaitLoads; ++n) flag = load<S>(y);
      fence<F>();
      uint32_t data = load<D>(x);
      res[0] = flag;
      res[1] = data;
    }
  } else if constexpr (T == LitmusTest::kSB) {
    uint32_t* mine = role == 0 ? x : y;
    uint32_t* other = role == 0 ? y : x;
    store<S>(mine, 1);
    fence<F>();
    res[role] = load<S>(other);
  } else if constexpr (T == LitmusTest::kLB) {
    uint32_t* mine = role == 0 ? x : y;
    uint32_t* other = role == 0 ? y : x;
    uint32_t seen = load<S>(mine);
    fence<F>();
    store<S>(other, 1);
    res[role] = seen;
  } else if constexpr (T == LitmusTest::kIRIW) {
    if (role < 2) {
      store<S>(role == 0 ? x : y, 1);
    } else {
      uint32_t* first = role == 2 ? x : y;
      uint32_t* second = role == 2 ? y : x;
      uint32_t a = load<S>(first);
      fence<F>();
      uint32_t b = load<S>(second);
      res[(role - 2) * 2] = a;
      res[(role - 2) * 2 + 1] = b;
    }
  } else {  // CoRR: one writer, one thread reading the same location twice
    if (role == 0) {
      store<S>(x, 1);
    } else {
      uint32_t a = load<S>(x);
      fence<F>();
      uint32_t b = load<S>(x);
      res[0] = a;
      res[1] = b;
    }
  }
}

// The outcome the memory model may forbid, read back from res[0..3].
constexpr bool is_weak_outcome(LitmusTest t, const uint32_t* r) {
  switch (t) {
    case LitmusTest::kMP: return r[0] == 1 && r[1] == 0;
    case LitmusTest::kSB: return r[0] == 0 && r[1] == 0;
    case LitmusTest::kLB: return r[0] == 1 && r[1] == 1;
    case LitmusTest::kIRIW: return r[0] == 1 && r[1] == 0 && r[2] == 1 && r[3] == 0;
    case LitmusTest::kCoRR: return r[0] == 1 && r[1] == 0;
  }
  return false;
}

}  // namespace litmus

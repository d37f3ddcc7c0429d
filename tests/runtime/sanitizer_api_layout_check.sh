#!/usr/bin/env bash
# sanitizer_api_layout_check.sh SOURCE_ROOT: compiles sanitizer_api_layout_check.cpp against the CUDA
# toolkit's Compute Sanitizer headers; exit 77 (skipped) where the toolkit has none (the CPU machines).
set -euo pipefail
root="$1"
cuda="${CUDA_HOME:-/usr/local/cuda}"
headers="$cuda/compute-sanitizer/include"
[[ -f $headers/sanitizer.h ]] || { echo "no Compute Sanitizer headers under $cuda: skipped"; exit 77; }
c++ -std=c++20 -fsyntax-only -I"$root/src" -I"$root/include" -I"$headers" -I"$cuda/include" \
  "$root/tests/runtime/sanitizer_api_layout_check.cpp"
echo "runtime/sanitizer_api.h matches $headers"

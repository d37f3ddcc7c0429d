#!/usr/bin/env bash
# Runs every runtime_probe variant (benchmarks/gpu/CMakeLists.txt) found in DIR, one output line each:
#   run_runtime_probes.sh [DIR] [calls-per-thread]     (DIR defaults to this script's folder)
# How to read the lines: README.md beside this script.
dir=$(cd "${1:-$(dirname "$0")}" && pwd)
shift
variants="shipped cap64 cap128 uncapped inline word_by_value word_by_value_uncapped no_fence no_match_any
          no_encode no_conflict_flags no_classify direct_queue minimal"
# The probes link cudart dynamically: a libcudart.so.13 copied beside them is found first.
export LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader 2>/dev/null
for variant in $variants; do
  timeout 10 "$dir/runtime_probe_$variant" "$@" || echo "$variant: exit $?"
done

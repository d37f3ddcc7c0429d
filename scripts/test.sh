#!/usr/bin/env bash
# Set-up command 2 of 2 (README): runs every test of both builds made by scripts/setup.sh.
# GPU tests (label gpu) report "skipped" on machines without a GPU; fuzz targets run for a bounded time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="/usr/local/cuda/bin:$PATH"
status=0
for dir in build build-asan; do
  [[ -f $dir/CTestTestfile.cmake ]] || continue
  echo "=== ctest $dir"
  ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" "$@" || status=1
done
exit $status

#!/usr/bin/env bash
# Runs on the GPU machine, in the copy of the working tree the device tool makes, with .device-pack
# carried (scripts/device-pack.sh). Recreates the build's absolute paths, then runs the ctest labels
# given (default: gpu) and copies logs to $OUT when set. Usage: scripts/device-test.sh [ctest args...]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pack="$here/.device-pack"
[[ -f $pack/source-root ]] || { echo "device-test: no .device-pack (carry it)" >&2; exit 2; }
"$here/scripts/device-unpack.sh"
src_root="$(cat "$pack/source-root")"
if [[ $src_root != "$here" ]]; then
  mkdir -p "$(dirname "$src_root")"
  ln -sfn "$here" "$src_root"
fi
ln -sfn "$pack/build" "$here/build"
export LD_LIBRARY_PATH="$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="/usr/local/cuda/bin:$PATH"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
args=("$@")
((${#args[@]})) || args=(-L gpu)
ctest --test-dir "$src_root/build" --output-on-failure "${args[@]}" 2>&1 | tee "${OUT:-/tmp}/device-test.log"
exit "${PIPESTATUS[0]}"

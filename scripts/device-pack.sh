#!/usr/bin/env bash
# Packs the Release build for the GPU machine (Ubuntu 24.04, CUDA 13, no TBB/libelf headers there):
# the build tree without object files, plus the shared libraries that machine lacks, into .device-pack/
# (git-ignored), compressed into .device-pack/pack.tar.xz. Carry it with the device tool (carry:
# [".device-pack"]) and run scripts/device-test.sh, which unpacks it (scripts/device-unpack.sh).
#   scripts/device-pack.sh [--bench WORKLOAD,...]
# --bench keeps only the named gpubench programs (default: all 16, about 16 MB): the working tree and
# the pack together must stay under the device tool's 64 MiB.
set -euo pipefail
bench_kept=""
if [[ ${1:-} == --bench ]]; then
  bench_kept=",${2?device-pack: --bench needs a comma-separated list of workloads (or \"\" for none)},"
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
[[ -d build ]] || { echo "device-pack: no build/ — run scripts/setup.sh first" >&2; exit 2; }
rm -rf .device-pack
mkdir -p .device-pack/lib
mkdir -p .device-pack/build
# The device tool carries 64 MiB at most: leave out objects, CMake's scratch files, the CPU tests' data
# and programs.
tar -C build --exclude='*.o' --exclude='*.a' --exclude='.ninja_*' --exclude='*-corpus' --exclude='./CMakeFiles' \
  --exclude='./tests/fatbin' --exclude='./tests/ptx' --exclude='./tests/gpu' --exclude='*.ii' --exclude='./Testing' \
  -cf - . | tar -C .device-pack/build -xf -
# Of the programs, only those the GPU machine runs: the ones the gpu-labelled tests name, the
# benchmarks and barracuda itself (the CPU tests' executables stay here).
gpu_programs="$(ctest --test-dir build -N -L gpu --show-only=json-v1 | python3 -c '
import json, os, sys
names = {os.path.basename(word.strip("\"")) for test in json.load(sys.stdin)["tests"]
         for argument in test.get("command", []) for word in argument.split() if "/bin/" in word}
print(" ".join(sorted(names)))')"
for program in .device-pack/build/bin/*; do
  name="$(basename "$program")"
  [[ " $gpu_programs " == *" $name "* || $name == barracuda* || $name == gpubench-* ]] || rm -f "$program"
  if [[ -n $bench_kept && $name == gpubench-* && $bench_kept != *",${name#gpubench-},"* ]]; then rm -f "$program"; fi
done
# Symbol tables are most of each program's size and nothing on the GPU machine reads them (the
# dynamic symbols the preload library resolves stay). The libraries keep theirs: a backtrace taken
# there (cuda-gdb attached to a stalled run) names barracuda's functions.
strip --strip-unneeded .device-pack/build/bin/*
# Libraries the GPU machine does not have: TBB (and whatever else ldd resolves outside the system set).
for bin in .device-pack/build/bin/* .device-pack/build/lib/*.so; do
  [[ -f $bin && -x $bin ]] || continue
  ldd "$bin" 2>/dev/null | awk '/=> \//{print $3}' | grep -E 'libtbb|libelf|libxxhash' || true
done | sort -u | while read -r lib; do cp -L "$lib" .device-pack/lib/; done
# The build tree and ctest files name this checkout's absolute path; device-test.sh recreates it there.
echo "$root" > .device-pack/source-root
# Compressed (programs shrink about 7x: the whole test set then fits the 64 MiB a call carries);
# scripts/device-unpack.sh restores build/ and lib/ on the GPU machine (xz: tar, or Python's lzma).
tar -C .device-pack -cf - build lib | xz -6 -T2 > .device-pack/pack.tar.xz
rm -rf .device-pack/build .device-pack/lib
du -sh .device-pack

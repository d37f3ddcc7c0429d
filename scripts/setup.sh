#!/usr/bin/env bash
# Set-up command 1 of 2 (README): installs barracuda's Debian 12 dependencies, then builds
#   build/       Release with the system compiler: the tool you run;
#   build-asan/  Debug + AddressSanitizer/UBSan with clang, plus the libFuzzer targets: what CI also tests.
# BARRACUDA_BUILDS="release" (or "asan") builds just one of them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

packages=(
  cmake ninja-build g++ clang-14 libclang-rt-14-dev pkg-config
  libelf-dev liblz4-dev libzstd-dev zlib1g-dev libtbb-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev llvm-14-tools python3
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

export PATH="/usr/local/cuda/bin:$PATH"
builds="${BARRACUDA_BUILDS:-release asan}"
if [[ $builds == *release* ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build build
fi
if [[ $builds == *asan* ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DBARRACUDA_SANITIZE=ON -DBARRACUDA_FUZZ=ON
  cmake --build build-asan
fi

#!/usr/bin/env bash
# On the GPU machine: restores .device-pack/build and .device-pack/lib from the pack.tar.xz that
# scripts/device-pack.sh wrote (once per copy of the tree; a pack made before compression is left as
# it is). Uses tar with xz where the machine has it, else Python's lzma.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pack="$here/.device-pack"
[[ -f $pack/pack.tar.xz && ! -d $pack/build ]] || exit 0
if command -v xz > /dev/null; then
  tar -C "$pack" -xJf "$pack/pack.tar.xz"
else
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$pack/pack.tar.xz" "$pack"
fi

#!/usr/bin/env bash
# Runs an application natively and under LD_PRELOAD=libbarracuda.so with BARRACUDA_SHIM_LOG, then checks
# that the shim changed nothing the application shows (stdout, stderr, exit code) and that the log has
# the expected lines.
#
# usage: run_under_shim.sh --shim LIB [--gpu] [--also-preload LIB] [--replaced REGEX]
#                          [--log REGEX]... [--log-count N REGEX]... -- APP ARGS...
#   --gpu            exit 77 (ctest: skipped) unless an NVIDIA GPU and libcuda.so.1 are usable
#   --also-preload   preload LIB after the shim (e.g. a test transformer)
#   --replaced R     the preloaded run's stdout may differ from the native one, but must show the
#                    replaced code ran: no native stdout line matches R and one preloaded line does
#                    (repeatable; stderr and exit code must still be identical)
#   --log R          at least one log line matches the extended regex R
#   --log-count N R  exactly N log lines match R
set -uo pipefail

shim="" gpu=0 also_preload=""
replaced_patterns=() log_patterns=() count_patterns=() counts=()
while (($#)); do
  case $1 in
    --shim) shim=$2; shift 2 ;;
    --gpu) gpu=1; shift ;;
    --also-preload) also_preload=$2; shift 2 ;;
    --replaced) replaced_patterns+=("$2"); shift 2 ;;
    --log) log_patterns+=("$2"); shift 2 ;;
    --log-count) counts+=("$2"); count_patterns+=("$3"); shift 3 ;;
    --) shift; break ;;
    *) echo "run_under_shim: unknown argument $1" >&2; exit 2 ;;
  esac
done
(($#)) && [[ -n $shim ]] || { echo "run_under_shim: need --shim LIB -- APP [ARGS]" >&2; exit 2; }

if ((gpu)); then
  if ! nvidia-smi -L >/dev/null 2>&1; then echo "run_under_shim: no usable GPU (nvidia-smi -L failed): skipped"; exit 77; fi
  if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then echo "run_under_shim: libcuda.so.1 not found: skipped"; exit 77; fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
show() { echo "--- $1:"; cat "$2"; }

"$@" >"$work/native.out" 2>"$work/native.err"
native_rc=$?
preload="$shim${also_preload:+ $also_preload}"
BARRACUDA_SHIM_LOG="$work/shim.log" LD_PRELOAD="$preload" "$@" >"$work/shim.out" 2>"$work/shim.err"
shim_rc=$?
touch "$work/shim.log"

((native_rc == shim_rc)) || fail "exit code $native_rc natively, $shim_rc under the shim"
cmp -s "$work/native.err" "$work/shim.err" || fail "stderr differs under the shim"
if ((${#replaced_patterns[@]})); then
  for pattern in "${replaced_patterns[@]}"; do
    grep -Eq -- "$pattern" "$work/native.out" && fail "native stdout already matches '$pattern'"
    grep -Eq -- "$pattern" "$work/shim.out" || fail "stdout under the shim does not match '$pattern'"
  done
else
  cmp -s "$work/native.out" "$work/shim.out" || fail "stdout differs under the shim"
fi
for pattern in "${log_patterns[@]}"; do
  grep -Eq -- "$pattern" "$work/shim.log" || fail "no log line matches '$pattern'"
done
for i in "${!counts[@]}"; do
  found=$(grep -Ec -- "${count_patterns[$i]}" "$work/shim.log")
  ((found == counts[i])) || fail "${counts[$i]} log lines should match '${count_patterns[$i]}', found $found"
done

if ((failed)); then
  show "native stdout" "$work/native.out"; show "native stderr" "$work/native.err"
  show "shim stdout" "$work/shim.out"; show "shim stderr" "$work/shim.err"; show "shim log" "$work/shim.log"
  exit 1
fi
echo "ok: exit code $native_rc, $(wc -l <"$work/shim.log") log lines"
show "shim stdout" "$work/shim.out"
show "shim log" "$work/shim.log"

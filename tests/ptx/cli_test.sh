#!/usr/bin/env bash
# `barracuda ptx` end to end: printed form (FileCheck golden), --stats, and --check on bad input.
# Usage: cli_test.sh BARRACUDA FILECHECK INPUTS_DIR
set -euo pipefail
barracuda=$1 filecheck=$2 inputs=$3

"$barracuda" ptx "$inputs/features.ptx" | "$filecheck" "$inputs/features.check"

stats=$("$barracuda" ptx --stats "$inputs/features.ptx")
expected=$'functions: 2 (2 with a body)\ninstructions: 39\nbasic blocks: 6'
[[ $stats == "$expected" ]] || { echo "unexpected --stats output: $stats"; exit 1; }

"$barracuda" ptx --check "$inputs/features.ptx"

set +e
message=$("$barracuda" ptx --check "$inputs/malformed.ptx" 2>&1)
status=$?
set -e
[[ $status -eq 1 ]] || { echo "--check on malformed input exited $status, expected 1"; exit 1; }
[[ $message == "$inputs/malformed.ptx:6:15: expected an operand, found '#'" ]] || { echo "unexpected error: $message"; exit 1; }
echo "cli_test: ok"

#!/usr/bin/env bash
# Records the trace prefixes benchmarks/engine/traces/ holds: each gpubench workload at --scale 0.01
# under `barracuda run --record`, cut at record_limit (4 MiB of records: about 131k warp records,
# shared among the queues: each queue's first records), the run stopped soon after. Run on a GPU machine, from the repository root:
#   benchmarks/engine/record_traces.sh BIN_DIR OUT_DIR [WORKLOAD...]
# BIN_DIR holds barracuda and the gpubench-* programs (build/bin, or .device-pack/build/bin).
set -euo pipefail
bin_dir=$1
out_dir=$2
shift 2
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(bfs histogram gemm_tiled cub_reduce backprop hash_table spmv_csr pathfinder cub_scan)
mkdir -p "$out_dir"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
for w in "${workloads[@]}"; do
  # The trace is closed (readable) as soon as the limit is reached; the timeout only ends the run.
  "$bin_dir/barracuda" run -q --timeout 20 --cache-dir "$cache" --record "$out_dir/$w.bctrace" --record-limit 4M \
    -- "$bin_dir/gpubench-$w" --scale 0.01 > "$out_dir/$w.log" 2>&1 || true
  echo "$w: $(stat -c %s "$out_dir/$w.bctrace") bytes"
done

#!/bin/bash
source .probe/setup.sh
python3 benchmarks/gpu/run_bench.py --bin-dir $B --repetitions 1 --scale 0.1 --no-racecheck --barracuda $B/barracuda --barracuda-timeout 60 --tool-budget 70 --no-plot --workloads gemm_tiled backprop bfs spmv_csr pathfinder --out-dir $OUT/b6 > $OUT/bench6.log 2>&1
tail -16 $OUT/bench6.log

#!/bin/bash
source .probe/setup.sh
cmake -S tests/gpu -B /tmp/gs -G Ninja > /dev/null && cmake --build /tmp/gs > /dev/null
python3 tests/gpu/run_suite.py --manifest /tmp/gs/gpu_suite_manifest.json --barracuda $B/barracuda --no-racecheck --jobs 8 --timeout 90 --budget 240 --only "host/" --json $OUT/suite-host.json --out $OUT/SUITE-host.md > $OUT/suite-host.log 2>&1
grep -E "device_reset|verdict agreement" $OUT/SUITE-host.md
python3 benchmarks/gpu/run_bench.py --bin-dir $B --repetitions 1 --scale 0.1 --no-racecheck --barracuda $B/barracuda --barracuda-timeout 100 --tool-budget 110 --no-plot --workloads bfs histogram sssp cub_reduce needleman_wunsch --out-dir $OUT/b1 > $OUT/bench1.log 2>&1
tail -30 $OUT/bench1.log

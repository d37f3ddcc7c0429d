#!/bin/bash
source .probe/setup.sh
scripts/device-test.sh -L gpu -E "gpubench|torch" -j 4 > $OUT/gpu-tests.log 2>&1
grep -E "tests passed|\*\*\*Failed" $OUT/gpu-tests.log | head
cmake -S tests/gpu -B /tmp/gs -G Ninja > /dev/null && cmake --build /tmp/gs > /dev/null
python3 tests/gpu/run_suite.py --manifest /tmp/gs/gpu_suite_manifest.json --barracuda $B/barracuda --no-racecheck --jobs 8 --timeout 90 --budget 150 --json $OUT/suite.json --out $OUT/SUITE.md > $OUT/suite.log 2>&1
grep -E "verdict agreement|full agreement|racy programs|false alarms" $OUT/SUITE.md
python3 benchmarks/gpu/run_bench.py --bin-dir $B --repetitions 1 --scale 0.1 --no-racecheck --barracuda $B/barracuda --barracuda-timeout 60 --tool-budget 70 --no-plot --workloads gemm_tiled backprop --out-dir $OUT/b7 > $OUT/bench7.log 2>&1
tail -12 $OUT/bench7.log

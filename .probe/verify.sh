#!/bin/bash
source .probe/setup.sh
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
( time scripts/device-test.sh -L gpu -E "gpubench|torch" -j 4 > $OUT/gpu-tests.log 2>&1 ) 2> $OUT/gpu-tests.time
tail -5 $OUT/gpu-tests.log
cmake -S tests/gpu -B /tmp/gs -G Ninja > /dev/null && cmake --build /tmp/gs > /dev/null
( time python3 tests/gpu/run_suite.py --manifest /tmp/gs/gpu_suite_manifest.json --barracuda $B/barracuda --no-racecheck --jobs 8 --timeout 90 --budget 240 --json $OUT/suite.json --out $OUT/SUITE.md > $OUT/suite.log 2>&1 ) 2> $OUT/suite.time
tail -5 $OUT/suite.log
mkdir -p $OUT/litmus; ( time OUT=$OUT/litmus litmus/run.sh --jobs 16 --iterations 2000 > $OUT/litmus.log 2>&1 ) 2> $OUT/litmus.time
tail -5 $OUT/litmus.log

#!/bin/bash
source .probe/setup.sh
scripts/device-test.sh -L gpu -E "gpubench|torch" -j 4 > $OUT/gpu-tests.log 2>&1
grep -E "tests passed|\*\*\*Failed|Failed  " $OUT/gpu-tests.log | head
cmake -S tests/gpu -B /tmp/gs -G Ninja > /dev/null && cmake --build /tmp/gs > /dev/null
python3 tests/gpu/run_suite.py --manifest /tmp/gs/gpu_suite_manifest.json --barracuda $B/barracuda --no-racecheck --jobs 8 --timeout 90 --budget 240 --json $OUT/suite.json --out $OUT/SUITE.md > $OUT/suite.log 2>&1
grep -E "verdict agreement|full agreement|racy programs|false alarms" $OUT/SUITE.md
python3 tests/gpu/run_suite.py --manifest /tmp/gs/gpu_suite_manifest.json --barracuda $B/barracuda --barracuda-arg=--log-read-only --no-racecheck --jobs 8 --timeout 90 --budget 240 --json $OUT/suite-logged.json --out $OUT/SUITE-logged.md > $OUT/suite-logged.log 2>&1
grep -E "verdict agreement|full agreement|racy programs|false alarms" $OUT/SUITE-logged.md
python3 tests/gpu/compare_suite_runs.py $OUT/suite-logged.json $OUT/suite.json --out $OUT/DIFF.md --title "read-only parameter loads logged vs skipped" > $OUT/diff.log 2>&1
tail -5 $OUT/diff.log; head -30 $OUT/DIFF.md

#!/bin/bash
source .probe/setup.sh
scripts/device-test.sh -R "e2e_timeout" -j 2 > $OUT/timeout.log 2>&1
grep -E "tests passed|Failed|FAIL|exit " $OUT/timeout.log | head -20

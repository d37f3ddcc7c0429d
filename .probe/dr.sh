#!/bin/bash
source .probe/setup.sh
for i in 1 2 3; do $B/barracuda run -- .probe/device_reset > $OUT/dr$i.log 2>&1; echo "rc=$?" >> $OUT/dr$i.log; done
tail -5 $OUT/dr1.log
cat > /tmp/gdbcmds <<'G'
set pagination off
set environment LD_PRELOAD=/work/main/build/lib/libbarracuda.so
run
bt
thread apply all bt 8
G
ls $src/build/lib/ | head
timeout 200 cuda-gdb -batch -x /tmp/gdbcmds --args .probe/device_reset > $OUT/gdb.log 2>&1
tail -60 $OUT/gdb.log

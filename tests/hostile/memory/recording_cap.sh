#!/bin/bash
# The recording cap holds under `gradstep debug` whatever the tensor sizes: over STEPS (50)
# training steps of about 72 nodes on 4 MiB tensors (288 MiB of snapshots a step, more than the
# cap), the peak resident size under `gradstep debug --memory-cap 256` stays within the cap plus the
# script's own footprint (its peak under `gradstep run`) plus 10 %. Peaks are each process's VmHWM
# from /proc, which large_tensor_steps.py prints at its end. The debug run must also have recorded
# something, or the bound would hold trivially: after the first step, whose snapshots the recorder
# still holds, its resident size is above the plain run's by half the cap at least.
set -u
binary=$1
script=$(cd "$(dirname "$0")" && pwd)/large_tensor_steps.py
cap_mib=256
steps=${STEPS:-50}
side=1024
peak_kib() { sed -n 's/^VmHWM \([0-9]*\) kB$/\1/p' <<<"$1"; }
first_step_kib() { sed -n 's/^step 0 VmRSS \([0-9]*\) kB$/\1/p' <<<"$1"; }
fail() { echo "FAIL recording_cap: $*"; exit 1; }

run_out=$("$binary" run "$script" -- "$steps" "$side" 2>&1) || fail "gradstep run failed: $run_out"
debug_out=$("$binary" debug "$script" --memory-cap "$cap_mib" -- "$steps" "$side" 2>&1) \
    || fail "gradstep debug failed: $debug_out"
run_peak=$(peak_kib "$run_out")
debug_peak=$(peak_kib "$debug_out")
[ -n "$run_peak" ] || fail "no VmHWM line from gradstep run: $run_out"
[ -n "$debug_peak" ] || fail "no VmHWM line from gradstep debug: $debug_out"
grep -q "^loss " <<<"$debug_out" || fail "the script did not finish under gradstep debug: $debug_out"
[ "$(grep '^loss ' <<<"$run_out")" = "$(grep '^loss ' <<<"$debug_out")" ] || fail "losses differ"
cap_kib=$((cap_mib * 1024))
bound=$(((cap_kib + run_peak) * 110 / 100))
echo "run peak ${run_peak} kB, debug peak ${debug_peak} kB, bound ${bound} kB (cap ${cap_kib} kB + run peak, + 10 %)"
grep "VmRSS" <<<"$debug_out"
[ "$debug_peak" -le "$bound" ] || fail "debug peak ${debug_peak} kB above ${bound} kB"
run_first=$(first_step_kib "$run_out")
debug_first=$(first_step_kib "$debug_out")
echo "after the first step: run ${run_first} kB, debug ${debug_first} kB"
[ $((debug_first - run_first)) -ge $((cap_kib / 2)) ] \
    || fail "after the first step debug holds hardly more than run (${debug_first} against ${run_first} kB): were snapshots recorded?"
echo "ok recording_cap"

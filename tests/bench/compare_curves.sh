#!/bin/bash
# Issue 22's speed criterion: `gradstep compare --steps 100` on LeNet5 costs at most 1.3x one
# `gradstep run --steps 100` on a two-core machine, as its two sides run at the same time in two
# processes. Prints both times and the ratio. Usage: tests/bench/compare_curves.sh BUILD_DIR [STEPS]
set -u
BUILD="${1:-build}"
STEPS="${2:-100}"
HERE="$(cd "$(dirname "$0")" && pwd)"
SAMPLE="$HERE/../../samples/lenet5_digits.py"
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || echo "  (exit $?: $*)" >&2; t1=$(date +%s.%N); awk "BEGIN { print $t1 - $t0 }"; }
ratio() { awk "BEGIN { print $1 / $2 }"; }
run=$(seconds "$BUILD/app/gradstep" run "$SAMPLE" --steps "$STEPS" --seed 0 --quiet)
same=$(seconds "$BUILD/app/gradstep" compare "$SAMPLE" "$SAMPLE" --steps "$STEPS" --quiet)
mode=$(seconds "$BUILD/app/gradstep" compare "$SAMPLE" --what mode --steps "$STEPS" --quiet)
# Other work on the machine inflates the two-process side more than the one run: say how loaded it was.
printf 'load average (1, 5, 15 min): %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'gradstep run --steps %s                      %6.2f s\n' "$STEPS" "$run"
printf 'gradstep compare A A --steps %s              %6.2f s  (%.2fx the run; target <= 1.3x)\n' "$STEPS" "$same" "$(ratio "$same" "$run")"
printf 'gradstep compare --what mode --steps %s     %6.2f s  (%.2fx the run)\n' "$STEPS" "$mode" "$(ratio "$mode" "$run")"

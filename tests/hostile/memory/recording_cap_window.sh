#!/bin/bash
# The recording cap holds in the window too (`gradstep gui --memory-cap`), stepping node by node
# through STEPS (5) training steps of large tensors (large_tensor_steps.py on 512 x 512 float32:
# about 72 MiB of snapshots a step, against a 16 MiB cap). The window has a footprint of its own
# (Qt, the graph, the charts), so the bound is taken from two sizes of the same script: the window's
# peak on 16 x 16 tensors (the same nodes, the window's own share) plus what the large tensors add
# under `gradstep run` (the script's own share) plus the cap, plus 10 %. Peaks are VmHWM, which the
# script writes to PEAK_FILE after each step (the screenshot ends the window before the script's
# end). With a cap of 1024 MiB the same window run is about 50 MiB above this bound.
set -u
binary=$1
script=$(cd "$(dirname "$0")" && pwd)/large_tensor_steps.py
cap_mib=16
steps=5
nodes=370 # about 74 nodes a step: the screenshot is taken in the fifth step
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL recording_cap_window: $*"; exit 1; }

peak_of() { # MODE SIDE: the peak in kB of the script run by `gradstep MODE`
    local file=$work/peak_$1_$2
    if [ "$1" = gui ]; then
        STEPS=$steps SIDE=$2 PEAK_FILE=$file QT_QPA_PLATFORM=offscreen \
            "$binary" gui "$script" --memory-cap $cap_mib --steps-into $nodes --screenshot "$work/$2.png" \
            >"$work/out_$1_$2" 2>&1 || fail "gradstep gui on side $2 failed: $(cat "$work/out_$1_$2")"
        [ -s "$work/$2.png" ] || fail "no screenshot from the window on side $2"
    else
        STEPS=$steps SIDE=$2 PEAK_FILE=$file "$binary" run "$script" >"$work/out_$1_$2" 2>&1 \
            || fail "gradstep run on side $2 failed: $(cat "$work/out_$1_$2")"
    fi
    read -r step kib <"$file" || fail "no peak written by $1 on side $2"
    [ "$step" -ge 4 ] || fail "$1 on side $2 reached step $step only, not the fifth"
    echo "$kib"
}

gui_small=$(peak_of gui 16) || exit 1
gui_large=$(peak_of gui 512) || exit 1
run_small=$(peak_of run 16) || exit 1
run_large=$(peak_of run 512) || exit 1
cap_kib=$((cap_mib * 1024))
bound=$(((gui_small + run_large - run_small + cap_kib) * 110 / 100))
echo "window peak ${gui_large} kB on 512 x 512 (${gui_small} kB on 16 x 16); run ${run_large} kB (${run_small} kB);" \
     "bound ${bound} kB"
[ "$gui_large" -le "$bound" ] || fail "the window's peak ${gui_large} kB is above ${bound} kB"
echo "ok recording_cap_window"

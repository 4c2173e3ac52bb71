#!/bin/bash
# Regenerates the README's screenshots: the window on the default sample, offscreen, after a
# number of nodes has run, one picture per main view. Usage: resources/screenshots/make_screenshots.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build}"
OUT=resources/screenshots
export QT_QPA_PLATFORM=offscreen
shot() { # view, nodes
    "$BUILD/app/gradstep" gui samples/lenet5_digits.py --screenshot "$OUT/$1.png" --steps-into "$2" --view "$1" 2>/dev/null
    echo "$OUT/$1.png ($2 nodes)"
}
shot source 5
shot graph 40
shot tensor 25 # a backward node (fc2's MatMul): the inspector's chain rule
shot gradients 200
shot charts 700
shot compare 1  # the comparison runs after the first node; the picture waits for it
# The Migration view (needs python3-torch): the Conv2d port left at pad_mode='same', opened on its
# first divergence.
"$BUILD/app/gradstep" gui samples/migration/mindspore_cnn_pad_mode.py --migrate samples/migration/torch_cnn.py \
    --screenshot "$OUT/migration.png" 2>/dev/null && echo "$OUT/migration.png"

#!/bin/bash
# Runs every benchmark of this build, then (when Debian's python3-torch is installed) PyTorch's
# anchor figures from ../shared/bench/torch_anchor.py in the same run, one OpenBLAS thread, so the
# two sets of figures come from the same machine state. Usage: tests/bench/run_all.sh BUILD_DIR
set -u
BUILD="${1:-build}"
HERE="$(cd "$(dirname "$0")" && pwd)"
ANCHOR="$HERE/../../../shared/bench/torch_anchor.py"
for b in "$BUILD"/tests/bench/*_bench; do
    echo "== $(basename "$b")"
    "$b"
done
if /usr/bin/python3 -c "import torch" 2>/dev/null && [ -f "$ANCHOR" ]; then
    echo "== PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)') (torch_anchor.py --quick, OpenBLAS, 1 thread)"
    /usr/bin/python3 "$ANCHOR" --quick --runs 1 --blas openblas --threads 1
else
    echo "== PyTorch: not installed (bash ../shared/bench/install_deps.sh adds it); no anchor figures"
fi

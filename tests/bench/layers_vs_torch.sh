#!/bin/bash
# Each nn layer's forward + backward on gradstep against PyTorch 1.13 CPU, one thread each (gradstep
# issue 15: within 1.5x). Usage: tests/bench/layers_vs_torch.sh [BUILD_DIR] [--quick] [--only A,B]
# Runs python/layers_ms.py (through BUILD_DIR/tests/bench/run_script: no step report attached) and
# python/layers_torch.py (/usr/bin/python3, Debian's python3-torch) twice each, in the order
# gradstep, PyTorch, PyTorch, gradstep, so a load change during the run weighs on both sides alike;
# python/layers_table.py joins the figures. Needs torch: bash ../shared/bench/install_deps.sh.
set -u
BUILD="${1:-build}"
shift || true
HERE="$(cd "$(dirname "$0")" && pwd)"
PY="$HERE/python"
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
    echo "layers_vs_torch: PyTorch not installed (bash ../shared/bench/install_deps.sh adds it); skipped"
    exit 0
fi
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# One thread on both sides; LD_LIBRARY_PATH makes torch's libblas.so.3 OpenBLAS (as torch_anchor.py).
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
ours() { "$BUILD/tests/bench/run_script" "$PY/layers_ms.py" "$@" >> "$OUT/gradstep" || echo "layers_ms.py failed"; }
torch() {
    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread /usr/bin/python3 "$PY/layers_torch.py" "$@" \
        >> "$OUT/torch" || echo "layers_torch.py failed"
}
ours "$@"; torch "$@"; torch "$@"; ours "$@"
echo "PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)'), 1 thread; times in ms per" \
     "forward + backward; 2 runs per side; load average $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 "$PY/layers_table.py" "$OUT/gradstep" "$OUT/torch"

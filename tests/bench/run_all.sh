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
# The Python-level criteria of issue 15 (scripts in python/, run without the debugger's step report).
echo "== Model.train vs a hand-written loop (python/model_train_vs_loop.py, --quick)"
OPENBLAS_NUM_THREADS=1 "$BUILD/tests/bench/run_script" "$HERE/python/model_train_vs_loop.py" --quick
echo "== mixed precision: LeNet5 step at O2 vs float32, float16 elementwise vs float32 (python/amp_step.py, --quick)"
OPENBLAS_NUM_THREADS=1 "$BUILD/tests/bench/run_script" "$HERE/python/amp_step.py" --quick
echo "== mixed precision: LeNet5 on the digits at O2 vs float32 (python/amp_lenet_digits.py)"
OPENBLAS_NUM_THREADS=1 "$BUILD/tests/bench/run_script" "$HERE/python/amp_lenet_digits.py"
echo "== per-example gradients: vmap(grad) vs the Python loop, batch 32 (python/vmap_per_example_grads.py, --quick)"
OPENBLAS_NUM_THREADS=1 "$BUILD/tests/bench/run_script" "$HERE/python/vmap_per_example_grads.py" --quick
echo "== forward mode: ops.jvp by rules vs the double vjp, MLP and LeNet5 (python/jvp_forward_vs_double_vjp.py, --quick)"
OPENBLAS_NUM_THREADS=1 "$BUILD/tests/bench/run_script" "$HERE/python/jvp_forward_vs_double_vjp.py" --quick
echo "== jacfwd: one vmapped jvp vs the Python loop of jvps, MLP 64-128-10 (python/jacfwd_vmapped_vs_loop.py, --quick)"
OPENBLAS_NUM_THREADS=1 "$BUILD/tests/bench/run_script" "$HERE/python/jacfwd_vmapped_vs_loop.py" --quick
echo "== compare --steps 100 on LeNet5 against one run (compare_curves.sh)"
"$HERE/compare_curves.sh" "$BUILD" 100
echo "== data parallel: the all-reduce of LeNet5's gradients, 2 ranks (allreduce_bench.sh)"
"$HERE/allreduce_bench.sh" "$BUILD"
echo "== nn layers forward + backward vs PyTorch (layers_vs_torch.sh --quick)"
"$HERE/layers_vs_torch.sh" "$BUILD" --quick
if /usr/bin/python3 -c "import torch" 2>/dev/null && [ -f "$ANCHOR" ]; then
    echo "== PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)') (torch_anchor.py --quick, OpenBLAS, 1 thread)"
    /usr/bin/python3 "$ANCHOR" --quick --runs 1 --blas openblas --threads 1
else
    echo "== PyTorch: not installed (bash ../shared/bench/install_deps.sh adds it); no anchor figures"
fi

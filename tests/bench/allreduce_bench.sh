#!/bin/bash
# The data-parallel all-reduce benchmark: 2 ranks of allreduce_rank under Open MPI's mpirun
# (oversubscribed, unpinned, as `gradstep run --ranks 2` starts them). Usage: allreduce_bench.sh BUILD_DIR
set -eu
BUILD="${1:-build}"
ROOT=""
[ "$(id -u)" -eq 0 ] && ROOT="--allow-run-as-root"
mpirun -n 2 --oversubscribe --bind-to none $ROOT "$BUILD/tests/bench/allreduce_rank"

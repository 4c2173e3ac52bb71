// Gradient-check cases of the collective ops in a world of one rank (no launcher), where each
// is the identity and its MindSpore bprop must reduce to the identity too; their values and
// gradients across 2 and 4 ranks are checked under mpirun (tests/dist). SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"

#include "dist/communicator.h"
#include "ops/collective_ops.h"
#include "ops/elementwise.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {
// The world of one starts lazily, as a script's init() would start it.
Tensor world(const Tensor& x)
{
    dist::initialize();
    return x;
}
} // namespace

GRADCHECK_CASES({
    {"AllReduce", "sum times the input",
     [](const TensorList& x) { return mul(allReduce(world(x[0]), "sum"), x[0]); }, {sample({2, 3})}},
    {"AllReduce", "prod times the input (inputs away from zero)",
     [](const TensorList& x) { return mul(allReduce(world(x[0]), "prod"), x[0]); }, {sample({2, 3}, 0.5, 1.5)}},
    {"AllReduce", "max and min",
     [](const TensorList& x) { return mul(allReduce(world(x[0]), "max"), allReduce(x[0], "min")); },
     {sample({4})}},
    {"AllGather", "times the input", [](const TensorList& x) { return mul(allGather(world(x[0])), x[0]); },
     {sample({2, 2})}},
    {"ReduceScatter", "sum times the input",
     [](const TensorList& x) { return mul(reduceScatter(world(x[0]), "sum"), x[0]); }, {sample({3, 2})}},
    {"Broadcast", "from rank 0, squared",
     [](const TensorList& x) { return mul(broadcast(world(x[0]), 0), broadcast(x[0], 0)); }, {sample({3})}},
    {"AlltoAll", "split axis 1, concat axis 0, times the input",
     [](const TensorList& x) { return mul(allToAll(world(x[0]), 1, 1, 0), x[0]); }, {sample({2, 3})}},
});

// Gradient-check cases of the reductions. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

GRADCHECK_CASES({
    {"ReduceSum", "all axes", [](const TensorList& x) { return mul(reduceSum(x[0]), reduceSum(x[0])); }, {sample({2, 3})}},
    {"ReduceSum", "axis 1 keep_dims", [](const TensorList& x) { return mul(reduceSum(x[0], {1}, true), x[0]); }, {sample({2, 3, 2})}},
    {"ReduceSum", "axes (0, 2)", [](const TensorList& x) { return mul(reduceSum(x[0], {0, -1}), reduceSum(x[0], {0, 2})); }, {sample({2, 3, 2})}},
});

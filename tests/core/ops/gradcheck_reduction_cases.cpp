// Gradient-check cases of the reductions. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

// Max/min cases use sample() points, whose elements are distinct (no ties within the step).
GRADCHECK_CASES({
    {"ReduceSum", "all axes", [](const TensorList& x) { return mul(reduceSum(x[0]), reduceSum(x[0])); }, {sample({2, 3})}},
    {"ReduceSum", "axis 1 keep_dims", [](const TensorList& x) { return mul(reduceSum(x[0], {1}, true), x[0]); }, {sample({2, 3, 2})}},
    {"ReduceSum", "axes (0, 2)", [](const TensorList& x) { return mul(reduceSum(x[0], {0, -1}), reduceSum(x[0], {0, 2})); }, {sample({2, 3, 2})}},
    {"ReduceMean", "all axes, squared", [](const TensorList& x) { return mul(reduceMean(x[0]), reduceMean(x[0])); }, {sample({2, 3})}},
    {"ReduceMean", "axis 1 keep_dims times x", [](const TensorList& x) { return mul(reduceMean(x[0], {1}, true), x[0]); },
     {sample({2, 3, 2})}},
    {"ReduceMean", "axes (0, -1) of a 0-D and a 3-D input",
     [](const TensorList& x) { return mul(reduceMean(x[0], {0}), reduceMean(x[1], {0, -1})); },
     {sample({}, -1, 1, 3), sample({2, 3, 2}, -1, 1, 4)}},
    {"ReduceMax", "axis 1 keep_dims times x", [](const TensorList& x) { return mul(reduceMax(x[0], {1}, true), x[0]); },
     {sample({3, 4})}},
    {"ReduceMax", "all axes, squared", [](const TensorList& x) { return mul(reduceMax(x[0]), reduceMax(x[0])); },
     {sample({2, 3, 2})}},
    {"ReduceMin", "axes (0, 2) times another input",
     [](const TensorList& x) { return mul(reduceMin(x[0], {0, 2}), mul(x[1], reduceMin(x[0], {0, -1}))); },
     {sample({2, 3, 2}, -1, 1, 1), sample({3}, -1, 1, 2)}},
    {"Norm", "p = 2 over axis 1 times x", [](const TensorList& x) { return mul(norm(x[0], {1}, 2.0, true), x[0]); },
     {sample({3, 4})}},
    {"Norm", "p = 3 over all axes, squared", [](const TensorList& x) { return mul(norm(x[0], {}, 3.0), norm(x[0], {}, 3.0)); },
     {sample({2, 3})}},
    {"Norm", "p = 1 and p = 1.5 over axis 0",
     [](const TensorList& x) { return mul(norm(x[0], {0}, 1.0), norm(x[0], {0}, 1.5)); }, {sample({3, 2})}},
});

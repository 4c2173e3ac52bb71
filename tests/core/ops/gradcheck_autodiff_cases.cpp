// Gradient-check cases of the autodiff ops. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

GRADCHECK_CASES({
    {"StopGradient", "x*y + stop_gradient(x*y) differentiates only the first term",
     [](const TensorList& x) { return add(mul(x[0], x[1]), stopGradient(mul(x[0], x[1]))); },
     {sample({3}, -1, 1, 1), sample({3}, -1, 1, 2)}, true,
     [](const TensorList& x) { return mul(x[0], x[1]); }},
    {"Identity", "identity passes the gradient through", [](const TensorList& x) { return mul(identity(x[0]), x[0]); },
     {sample({2, 2})}},
});

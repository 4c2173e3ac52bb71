// Gradient-check cases of the shape ops. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

GRADCHECK_CASES({
    {"Reshape", "[2, 3] -> [3, -1]", [](const TensorList& x) { return mul(reshape(x[0], {3, -1}), reshape(x[0], {3, 2})); }, {sample({2, 3})}},
    {"BroadcastTo", "[3] -> [2, 3] and [2, 1] -> [2, 3]",
     [](const TensorList& x) { return mul(broadcastTo(x[0], {2, 3}), broadcastTo(x[1], {2, 3})); },
     {sample({3}, -1, 1, 1), sample({2, 1}, -1, 1, 2)}},
});

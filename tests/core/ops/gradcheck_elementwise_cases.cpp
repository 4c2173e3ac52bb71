// Gradient-check cases of the elementwise ops. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

GRADCHECK_CASES({
    {"Add", "same shape", [](const TensorList& x) { return mul(add(x[0], x[1]), x[0]); }, {sample({2, 3}, -1, 1, 1), sample({2, 3}, -1, 1, 2)}},
    {"Add", "broadcast [2, 3] + [3] and [2, 1]", [](const TensorList& x) { return mul(add(add(x[0], x[1]), x[2]), x[0]); },
     {sample({2, 3}, -1, 1, 1), sample({3}, -1, 1, 2), sample({2, 1}, -1, 1, 3)}},
    {"Mul", "broadcast [4, 1, 3] * [2, 1]", [](const TensorList& x) { return mul(mul(x[0], x[1]), x[1]); },
     {sample({4, 1, 3}, -1, 1, 1), sample({2, 1}, -1, 1, 2)}},
    {"Mul", "0-D scalar times a matrix", [](const TensorList& x) { return mul(mul(x[0], x[1]), x[0]); },
     {sample({}, 0.5, 1, 3), sample({2, 2}, -1, 1, 4)}},
    {"Neg", "neg", [](const TensorList& x) { return mul(neg(x[0]), x[0]); }, {sample({5})}},
    {"Cast", "float64 -> float32 -> float64 keeps the gradient",
     [](const TensorList& x) { return mul(cast(cast(x[0], DType::Float32), DType::Float64), x[0]); }, {sample({3})},
     // float32 rounding of the value is below the tolerance; the gradient path is what is checked.
     false, [](const TensorList& x) { return mul(x[0], x[0]); }},
});

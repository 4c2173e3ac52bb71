// Gradient-check cases of the complex-number ops, as real functions of real float64 inputs: the
// chain through complex intermediates must give the true gradient of the real result, which
// holds only if every rule on the way follows the same conjugation convention.
// SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {
// z = complex(a, b) squared, times w = complex(b, a), so every part feeds both real outputs.
Tensor mixed(const TensorList& x) { return mul(square(complex(x[0], x[1])), complex(x[1], x[0])); }
} // namespace

GRADCHECK_CASES({
    {"Complex", "parts of complex(a, b)^2 * complex(b, a)",
     [](const TensorList& x) { return add(real(mixed(x)), mul(imag(mixed(x)), x[0])); },
     {sample({3}, -1, 1, 1), sample({3}, -1, 1, 2)}},
    {"Real", "real of exp(complex(a, b)) / complex(b, 1)",
     [](const TensorList& x) { return real(div(exp(complex(x[0], x[1])), complex(x[1], onesLike(x[1])))); },
     {sample({2, 2}, -1, 1, 3), sample({2, 2}, -1, 1, 4)}},
    {"Imag", "imag of tanh(complex(a, b)) * sin(complex(b, a))",
     [](const TensorList& x) { return imag(mul(tanh(complex(x[0], x[1])), sin(complex(x[1], x[0])))); },
     {sample({3}, -1, 1, 5), sample({3}, -1, 1, 6)}},
    {"Conj", "real of conj(z) * z * log(z) and |z| (z = complex(a, b))",
     [](const TensorList& x) {
         const Tensor z = complex(x[0], x[1]);
         return add(real(mul(mul(conj(z), z), log(z))), abs(mul(z, sqrt(z))));
     },
     {sample({3}, 0.3, 1, 7), sample({3}, 0.3, 1, 8)}},
});

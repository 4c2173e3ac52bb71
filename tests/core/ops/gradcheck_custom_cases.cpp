// Gradient-check case of the Custom op: its backward is the kernel's bprop. SPDX-License-Identifier: MIT
#include "tests/core/ops/custom/cube_kernel.h"
#include "tests/core/ops/gradcheck.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {
const CustomOp& cube()
{
    static const CustomOp op(cubeKernel());
    return op;
}
} // namespace

GRADCHECK_CASES({
    {"Custom", "a C++ cube kernel with its bprop 3x^2 dout",
     [](const TensorList& x) { return cube()(x)[0]; }, {sample({2, 3}, -1.5, 1.5, 4)}},
});

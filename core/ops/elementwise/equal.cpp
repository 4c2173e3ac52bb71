// equal: y = (a == b), broadcasting, with a Bool output. Inputs are compared in their
// promoted dtype (Int32 vs Float32 compares as floats). IEEE: every comparison with NaN is
// false except not_equal, which is true. Not differentiable (no backward rule).
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void forwardEqual(const OpCall& call, std::span<Tensor> outputs)
{
    compareForward<true>(call, outputs, [](auto x, auto y) { return x == y; });
}
} // namespace

const OpDef kEqual{"Equal", "equal", OpKind::Elementwise, 2, 2,
                   inferCompare, forwardEqual, nullptr};

Tensor equal(const Tensor& a, const Tensor& b) { return callOp1(kEqual, {a, b}); }

} // namespace gradstep

// zeros_like: y = 0 with x's shape and dtype. The output is a constant: it does not depend on x's
// values, so the op is registered without a backward rule and nothing flows back to x.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

#include <cstring>

namespace gradstep {

namespace {
void inferZerosLike(const OpCall& call, SpecList& out) { out.push_back({call.input(0).shape(), call.input(0).dtype()}); }

void forwardZerosLike(const OpCall&, std::span<Tensor> outputs)
{
    std::memset(outputs[0].rawData(), 0, outputs[0].nbytes());
}
} // namespace

const OpDef kZerosLike{"ZerosLike", "zeros_like", OpKind::Shape, 1, 1, inferZerosLike, forwardZerosLike, nullptr};

Tensor zerosLike(const Tensor& x) { return callOp1(kZerosLike, {x}); }

} // namespace gradstep

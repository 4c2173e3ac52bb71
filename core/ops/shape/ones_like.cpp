// ones_like: y = 1 with x's shape and dtype (true for Bool). The output is a constant: it does
// not depend on x's values, so the op is registered without a backward rule.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

namespace gradstep {

namespace {
void inferOnesLike(const OpCall& call, SpecList& out) { out.push_back({call.input(0).shape(), call.input(0).dtype()}); }

void forwardOnesLike(const OpCall&, std::span<Tensor> outputs)
{
    Tensor& out = outputs[0];
    visitDataDType(out.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        T* p = static_cast<T*>(out.rawData());
        for (std::int64_t i = 0, n = out.numel(); i < n; ++i)
            p[i] = T(1);
    });
}
} // namespace

const OpDef kOnesLike{"OnesLike", "ones_like", OpKind::Shape, 1, 1, inferOnesLike, forwardOnesLike, nullptr};

Tensor onesLike(const Tensor& x) { return callOp1(kOnesLike, {x}); }

} // namespace gradstep

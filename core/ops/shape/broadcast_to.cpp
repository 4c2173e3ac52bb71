// broadcast_to: y = x repeated along axes of size 1 (and new leading axes) to `shape`.
// dy/dx: the gradient summed back over the broadcast axes. SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/elementwise/kernels.h"
#include "ops/shape/defs.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

namespace gradstep {

namespace {
void inferBroadcastTo(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    std::vector<std::int64_t> dims = call.attrs.getInts("shape");
    const int lead = static_cast<int>(dims.size()) - x.rank();
    if (lead < 0)
        throwShapeError(call, "target shape has fewer dimensions than the input");
    for (int a = 0; a < x.rank(); ++a) {
        std::int64_t& d = dims[static_cast<std::size_t>(a + lead)];
        if (d == -1)
            d = x.shape()[a];
        if (x.shape()[a] != 1 && x.shape()[a] != d)
            throwShapeError(call, "cannot broadcast dimension " + std::to_string(a) + " of size "
                                      + std::to_string(x.shape()[a]) + " to " + std::to_string(d));
    }
    out.push_back({Shape(dims), x.dtype()});
}

void forwardBroadcastTo(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    visitDataDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        // Broadcasting against a scalar zero-stride operand reuses the binary loop.
        const Tensor zero = Tensor::zeros(Shape{}, x.dtype());
        broadcastBinary<T, T>(x, zero, out, [](T v, T) { return v; });
    });
}

TensorList backwardBroadcastTo(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {sumToShape(grads[0], ctx.input(0).shape())};
}
} // namespace

const OpDef kBroadcastTo{"BroadcastTo", "broadcast_to", OpKind::Shape, 1, 1, inferBroadcastTo,
                         forwardBroadcastTo, backwardBroadcastTo};

Tensor broadcastTo(const Tensor& x, const std::vector<std::int64_t>& shape)
{
    Attrs attrs;
    attrs.set("shape", shape);
    return callOp1(kBroadcastTo, {x}, attrs);
}

} // namespace gradstep

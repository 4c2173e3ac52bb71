// broadcast_to: y = x repeated along axes of size 1 (and new leading axes) to `shape`.
// dy/dx: the gradient summed back over the broadcast axes. SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/elementwise/kernels.h"
#include "ops/shape/defs.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

#include <algorithm>
#include <cstring>

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

/// True when x is out's trailing block repeated (x's shape, without leading 1s, is out's last axes).
bool repeatsWhole(const Shape& x, const Shape& out)
{
    int first = 0;
    while (first < x.rank() && x[first] == 1)
        ++first;
    const int lead = out.rank() - (x.rank() - first);
    for (int a = first; a < x.rank(); ++a)
        if (x[a] != out[lead + a - first])
            return false;
    return true;
}

void forwardBroadcastTo(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    if (out.numel() == 0 || x.numel() == 0)
        return;
    // The two common cases (a gradient of a sum or mean, a bias over a batch) as fills and copies:
    // the general loop below indexes element by element.
    if (x.numel() == 1) {
        visitDataDType(x.dtype(), [&](auto* tag) {
            using T = std::remove_pointer_t<decltype(tag)>;
            std::fill_n(static_cast<T*>(out.rawData()), out.numel(), static_cast<const T*>(x.rawData())[0]);
        });
        return;
    }
    if (repeatsWhole(x.shape(), out.shape())) {
        const std::size_t block = x.nbytes();
        const auto* from = static_cast<const unsigned char*>(x.rawData());
        auto* to = static_cast<unsigned char*>(out.rawData());
        for (std::int64_t copy = 0, copies = out.numel() / x.numel(); copy < copies; ++copy)
            std::memcpy(to + static_cast<std::size_t>(copy) * block, from, block);
        return;
    }
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

// Shared machinery of the elementwise ops. SPDX-License-Identifier: MIT
#include "ops/elementwise/kernels.h"

namespace gradstep {

Tensor convertDType(const Tensor& x, DType dtype)
{
    if (x.dtype() == dtype)
        return x;
    Tensor out = Tensor::empty(x.shape(), dtype);
    visitDType(x.dtype(), [&](auto* inTag) {
        using In = std::remove_pointer_t<decltype(inTag)>;
        visitDType(dtype, [&](auto* outTag) {
            using Out = std::remove_pointer_t<decltype(outTag)>;
            const In* pi = x.data<In>();
            Out* po = out.data<Out>();
            for (std::int64_t i = 0, n = x.numel(); i < n; ++i)
                po[i] = static_cast<Out>(pi[i]);
        });
    });
    return out;
}

void inferBinary(const OpCall& call, SpecList& out, bool floatOnly)
{
    const Tensor& a = call.input(0);
    const Tensor& b = call.input(1);
    DType dtype = promote(a.dtype(), b.dtype());
    if (floatOnly && !isFloating(dtype))
        throwDTypeError(call, "inputs must be float32 or float64");
    out.push_back({broadcastShapes(a.shape(), b.shape(), call.op.name), dtype});
}

void inferCompare(const OpCall& call, SpecList& out)
{
    out.push_back({broadcastShapes(call.input(0).shape(), call.input(1).shape(),
                                   call.op.name),
                   DType::Bool});
}

void inferUnary(const OpCall& call, SpecList& out, bool floatOnly)
{
    const Tensor& x = call.input(0);
    if (floatOnly && !isFloating(x.dtype()))
        throwDTypeError(call, "input must be float32 or float64");
    out.push_back({x.shape(), x.dtype()});
}

std::array<std::int64_t, Shape::kMaxRank> broadcastStrides(const Shape& shape, const Shape& outShape)
{
    std::array<std::int64_t, Shape::kMaxRank> strides{};
    const auto own = contiguousStrides(shape);
    const int offset = outShape.rank() - shape.rank();
    for (int axis = 0; axis < shape.rank(); ++axis)
        strides[static_cast<std::size_t>(axis + offset)] = shape[axis] == 1 ? 0 : own[static_cast<std::size_t>(axis)];
    return strides;
}

} // namespace gradstep

// Shared machinery of the elementwise ops. SPDX-License-Identifier: MIT
#include "ops/elementwise/kernels.h"

#include "ops/complex_support.h"

namespace gradstep {

void inferBinary(const OpCall& call, SpecList& out, bool floatOnly)
{
    const Tensor& a = call.input(0);
    const Tensor& b = call.input(1);
    DType dtype = promote(a.dtype(), b.dtype());
    if (floatOnly && !isFloating(dtype) && !isComplex(dtype))
        throwInputDType(call, 0, inexactDTypes(call.op));
    out.push_back({broadcastShapes(a.shape(), b.shape(), call.op.name), dtype});
}

void inferCompare(const OpCall& call, SpecList& out)
{
    out.push_back({broadcastShapes(call.input(0).shape(), call.input(1).shape(),
                                   call.op.name),
                   DType::Bool});
}

void inferTernary(const OpCall& call, SpecList& out, std::size_t firstValue)
{
    const Shape& s0 = call.input(0).shape();
    const Shape& s1 = call.input(1).shape();
    const Shape& s2 = call.input(2).shape();
    Shape shape;
    try {
        shape = broadcastShapes(broadcastShapes(s0, s1, call.op.name), s2, call.op.name);
    } catch (const ShapeError&) {
        throwShapeError(call, "shapes " + s0.toString() + ", " + s1.toString() + " and "
                                  + s2.toString() + " cannot broadcast together");
    }
    DType dtype = call.input(firstValue).dtype();
    for (std::size_t i = firstValue + 1; i < 3; ++i)
        dtype = promote(dtype, call.input(i).dtype());
    out.push_back({shape, dtype});
}

void requireNumber(const OpCall& call, DType dtype)
{
    if (dtype == DType::Bool)
        throwInputDType(call, 0, kNumberDTypes);
}

void inferUnary(const OpCall& call, SpecList& out, bool floatOnly)
{
    const Tensor& x = call.input(0);
    if (floatOnly && !isFloating(x.dtype()) && !isComplex(x.dtype()))
        throwInputDType(call, 0, inexactDTypes(call.op));
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

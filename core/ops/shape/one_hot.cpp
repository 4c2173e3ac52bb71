// one_hot: y[..., d, ...] = on_value where indices[...] == d, else off_value, with the new axis
// of size `depth` at `axis` (-1: last). Indices outside [0, depth), negative ones included,
// give a row of off_value, as MindSpore and TensorFlow do. The output dtype is the `dtype`
// attribute. Not differentiable: indices are integers and the values are attributes, so the
// output is a constant (registered without a backward rule). SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
int oneHotAxis(const OpCall& call)
{
    const int rank = call.input(0).rank();
    const std::int64_t axis = call.attrs.getInt("axis", -1);
    if (axis < -1 || axis > rank)
        throwValueError(call, "axis " + std::to_string(axis) + " is out of range [-1, " + std::to_string(rank)
                                  + "] for indices of rank " + std::to_string(rank));
    return axis == -1 ? rank : static_cast<int>(axis);
}

void inferOneHot(const OpCall& call, SpecList& out)
{
    const Tensor& indices = call.input(0);
    if (indices.dtype() != DType::Int32 && indices.dtype() != DType::Int64)
        throwInputDType(call, 0, kIndexDTypes);
    const std::int64_t depth = call.attrs.getInt("depth");
    if (depth < 0)
        throwValueError(call, "depth must be non-negative, got " + std::to_string(depth));
    const int axis = oneHotAxis(call);
    Shape shape;
    for (int a = 0; a <= indices.rank(); ++a) {
        if (a == axis)
            shape.push_back(depth);
        if (a < indices.rank())
            shape.push_back(indices.shape()[a]);
    }
    const DType dtype = call.attrs.getDType("dtype");
    checkRepresentable(call, "on_value", call.attrs.getFloat("on_value", 1.0), dtype);
    checkRepresentable(call, "off_value", call.attrs.getFloat("off_value", 0.0), dtype);
    out.push_back({shape, dtype});
}

void forwardOneHot(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& indices = call.input(0);
    const int axis = oneHotAxis(call);
    const std::int64_t depth = call.attrs.getInt("depth");
    const std::int64_t outer = dimProduct(indices.shape(), 0, axis);
    const std::int64_t inner = dimProduct(indices.shape(), axis, indices.rank());
    const std::vector<std::int64_t> index = indexValues(indices);
    visitDType(outputs[0].dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const auto on = static_cast<T>(call.attrs.getFloat("on_value", 1.0));
        const auto off = static_cast<T>(call.attrs.getFloat("off_value", 0.0));
        T* out = static_cast<T*>(outputs[0].rawData());
        for (std::int64_t o = 0; o < outer; ++o)
            for (std::int64_t d = 0; d < depth; ++d)
                for (std::int64_t i = 0; i < inner; ++i)
                    *out++ = index[static_cast<std::size_t>(o * inner + i)] == d ? on : off;
    });
}
} // namespace

const OpDef kOneHot{"OneHot", "one_hot", OpKind::Shape, 1, 1, inferOneHot, forwardOneHot, nullptr};

Tensor oneHot(const Tensor& indices, std::int64_t depth, double onValue, double offValue, std::int64_t axis,
              DType dtype)
{
    Attrs attrs;
    attrs.set("depth", depth).set("on_value", onValue).set("off_value", offValue).set("axis", axis).set("dtype", dtype);
    return callOp1(kOneHot, {indices}, attrs);
}

} // namespace gradstep

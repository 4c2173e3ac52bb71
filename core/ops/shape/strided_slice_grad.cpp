// strided_slice_grad: the gradient of StridedSlice. y = zeros of `shape` with
// y[begin_a + i_a * strides_a, ...] = dy[i_0, ...] (the slice positions are distinct, so nothing
// accumulates). It is linear in dy: d/d(dy) of <y, g> is strided_slice(g) with the same
// begin/end/strides, so grad of grad works. SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

#include <cstring>

namespace gradstep {

namespace {
void inferStridedSliceGrad(const OpCall& call, SpecList& out)
{
    const Tensor& dy = call.input(0);
    const Shape shape(call.attrs.getInts("shape"));
    const Shape sliced = slicedShape(call, shape, sliceSpecFromAttrs(call.attrs));
    if (!(sliced == dy.shape()))
        throwShapeError(call, "gradient has shape " + dy.shape().toString() + ", expected the slice shape "
                                  + sliced.toString());
    out.push_back({shape, dy.dtype()});
}

void forwardStridedSliceGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& dy = call.input(0);
    Tensor& out = outputs[0];
    std::memset(out.rawData(), 0, out.nbytes());
    std::int64_t offset = 0;
    AxisStrides strides{};
    sliceLayout(out.shape(), sliceSpecFromAttrs(call.attrs), offset, strides);
    visitDataDType(dy.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        scatterStrided<T>(static_cast<const T*>(dy.rawData()), static_cast<T*>(out.rawData()), dy.shape(), offset,
                          strides);
    });
}

TensorList backwardStridedSliceGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Attrs& attrs = ctx.attrs();
    return {stridedSlice(grads[0], attrs.getInts("begin"), attrs.getInts("end"), attrs.getInts("strides"))};
}
} // namespace

const OpDef kStridedSliceGrad{"StridedSliceGrad", "strided_slice_grad", OpKind::Shape, 1, 1, inferStridedSliceGrad,
                              forwardStridedSliceGrad, backwardStridedSliceGrad};

Tensor stridedSliceGrad(const Tensor& dy, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& begin,
                        const std::vector<std::int64_t>& end, const std::vector<std::int64_t>& strides)
{
    Attrs attrs;
    attrs.set("shape", shape).set("begin", begin).set("end", end).set("strides", strides);
    return callOp1(kStridedSliceGrad, {dy}, attrs);
}

} // namespace gradstep

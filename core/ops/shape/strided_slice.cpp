// strided_slice: y[i_0, ...] = x[begin_0 + i_0 * strides_0, ...], one (begin, end, stride) per
// axis, taking begin, begin + stride, ... while before end. The bounds are already normalised (no
// Python wrap-around): for a positive stride 0 <= begin, end <= dim; for a negative stride
// -1 <= begin, end <= dim - 1, where end = -1 means "through index 0". Anything else is a
// ValueError, as is a zero stride.
// dy/dx: the gradient scattered back into zeros of x's shape at the sliced positions
// (StridedSliceGrad, whose own gradient is this slice again). NaN/Inf are carried through.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

namespace gradstep {

namespace {
void inferStridedSlice(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    out.push_back({slicedShape(call, x.shape(), sliceSpecFromAttrs(call.attrs)), x.dtype()});
}

void forwardStridedSlice(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    std::int64_t offset = 0;
    AxisStrides strides{};
    sliceLayout(x.shape(), sliceSpecFromAttrs(call.attrs), offset, strides);
    visitDataDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        gatherStrided<T>(static_cast<const T*>(x.rawData()), static_cast<T*>(outputs[0].rawData()),
                         outputs[0].shape(), offset, strides);
    });
}

TensorList backwardStridedSlice(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Attrs& attrs = ctx.attrs();
    return {stridedSliceGrad(grads[0], ctx.input(0).shape().toVector(), attrs.getInts("begin"),
                             attrs.getInts("end"), attrs.getInts("strides"))};
}
} // namespace

const OpDef kStridedSlice{"StridedSlice", "strided_slice", OpKind::Shape, 1, 1, inferStridedSlice,
                          forwardStridedSlice, backwardStridedSlice};

Tensor stridedSlice(const Tensor& x, const std::vector<std::int64_t>& begin, const std::vector<std::int64_t>& end,
                    const std::vector<std::int64_t>& strides)
{
    Attrs attrs;
    attrs.set("begin", begin).set("end", end).set("strides", strides);
    return callOp1(kStridedSlice, {x}, attrs);
}

} // namespace gradstep

// unsorted_segment_sum: y[s, q...] = sum over j with ids[j] = s of x[j, q...], where ids
// (Int32/Int64) has a prefix of x's shape and y has shape (num_segments,) + x.shape[ids.rank:].
// Ids outside [0, num_segments) are an IndexError naming the value (TensorFlow drops them; this
// op backs Gather's gradient, where such ids cannot occur). Segments no id names are 0.
// dy/dx = gather(dy, ids) along axis 0; no gradient for the ids. NaN/Inf propagate through the sums.
// SPDX-License-Identifier: MIT
#include "ops/elementwise/kernels.h"
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

#include <cstring>

namespace gradstep {

namespace {
void inferUnsortedSegmentSum(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    const Tensor& ids = call.input(1);
    const std::int64_t segments = call.attrs.getInt("num_segments");
    if (x.dtype() == DType::Bool)
        throwInputDType(call, 0, kNumberDTypes);
    if (ids.dtype() != DType::Int32 && ids.dtype() != DType::Int64)
        throwInputDType(call, 1, kIndexDTypes);
    if (segments < 0)
        throwValueError(call, "num_segments must be non-negative, got " + std::to_string(segments));
    bool prefix = ids.rank() <= x.rank();
    for (int a = 0; prefix && a < ids.rank(); ++a)
        prefix = ids.shape()[a] == x.shape()[a];
    if (!prefix)
        throwShapeError(call, "segment ids of shape " + ids.shape().toString() + " must be a prefix of the input shape "
                                  + x.shape().toString());
    Shape shape{segments};
    for (int a = ids.rank(); a < x.rank(); ++a)
        shape.push_back(x.shape()[a]);
    out.push_back({shape, x.dtype()});
}

void forwardUnsortedSegmentSum(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const Tensor& ids = call.input(1);
    Tensor& out = outputs[0];
    // The range check reads the ids, so it is the kernel's (a shape rule sees only shapes, which
    // is all graph mode knows when it builds the node).
    const std::int64_t segments = call.attrs.getInt("num_segments");
    const std::vector<std::int64_t> segment = indexValues(ids);
    for (const std::int64_t id : segment)
        if (id < 0 || id >= segments)
            throwIndexError(call, "segment id " + std::to_string(id) + " is out of range [0, "
                                      + std::to_string(segments) + ")");
    std::memset(out.rawData(), 0, out.nbytes());
    const std::int64_t inner = dimProduct(x.shape(), ids.rank(), x.rank());
    visitDataDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* px = static_cast<const T*>(x.rawData());
        T* po = static_cast<T*>(out.rawData());
        for (std::size_t j = 0; j < segment.size(); ++j) {
            T* row = po + segment[j] * inner;
            const T* in = px + static_cast<std::int64_t>(j) * inner;
            for (std::int64_t k = 0; k < inner; ++k)
                row[k] = wrapAdd(row[k], in[k]);
        }
    });
}

TensorList backwardUnsortedSegmentSum(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {gather(grads[0], ctx.input(1), 0), Tensor()};
}
} // namespace

const OpDef kUnsortedSegmentSum{"UnsortedSegmentSum", "unsorted_segment_sum", OpKind::Shape, 2, 2,
                                inferUnsortedSegmentSum, forwardUnsortedSegmentSum, backwardUnsortedSegmentSum,
                                false, 1};

Tensor unsortedSegmentSum(const Tensor& x, const Tensor& segmentIds, std::int64_t numSegments)
{
    Attrs attrs;
    attrs.set("num_segments", numSegments);
    return callOp1(kUnsortedSegmentSum, {x, segmentIds}, attrs);
}

} // namespace gradstep

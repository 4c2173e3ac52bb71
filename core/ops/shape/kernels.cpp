// Shared machinery of the shape ops. SPDX-License-Identifier: MIT
#include "ops/shape/kernels.h"

#include "tensor/dtype.h"

#include <cmath>

namespace gradstep {

void throwIndexError(const OpCall& call, const std::string& message)
{
    throw IndexError("for '" + std::string(call.op.name) + "', " + message + " (" + call.describe() + ")");
}

namespace {
[[noreturn]] void throwAxisRange(const OpCall& call, std::int64_t axis, std::int64_t lo, std::int64_t hi, int rank)
{
    const std::string range = lo > hi ? "(no axes)" : "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    throwValueError(call, "axis " + std::to_string(axis) + " is out of range " + range + " for a tensor of rank "
                              + std::to_string(rank));
}
} // namespace

int checkedAxis(const OpCall& call, std::int64_t axis, int rank)
{
    if (axis < -rank || axis >= rank)
        throwAxisRange(call, axis, -rank, rank - 1, rank);
    return static_cast<int>(axis < 0 ? axis + rank : axis);
}

int checkedInsertAxis(const OpCall& call, std::int64_t axis, int rank)
{
    if (axis < -rank - 1 || axis > rank)
        throwAxisRange(call, axis, -rank - 1, rank, rank);
    return static_cast<int>(axis < 0 ? axis + rank + 1 : axis);
}

void checkRepresentable(const OpCall& call, const char* what, double value, DType dtype)
{
    // Powers of two are exact doubles; the ranges are half-open because of them.
    if (!isIntegral(dtype))
        return;
    const double bits = static_cast<double>(itemSize(dtype) * 8);
    const double lo = isUnsigned(dtype) ? 0.0 : -std::exp2(bits - 1);
    const double hi = isUnsigned(dtype) ? std::exp2(bits) : std::exp2(bits - 1);
    if (!(value >= lo && value < hi))
        throwValueError(call, std::string(what) + " " + attrValueToString(value) + " does not fit in "
                                  + std::string(dtypeName(dtype)));
}

std::vector<std::int64_t> indexValues(const Tensor& indices)
{
    std::vector<std::int64_t> values(static_cast<std::size_t>(indices.numel()));
    visitDType(indices.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* p = static_cast<const T*>(indices.rawData());
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<std::int64_t>(p[i]);
    });
    return values;
}

std::int64_t dimProduct(const Shape& shape, int from, int to)
{
    // A tensor with a zero dimension may have other dimensions whose product alone overflows
    // int64 (tile of [0, 3] by [1, 2^62]); such a product is refused instead of overflowing.
    std::int64_t n = 1;
    for (int a = from; a < to; ++a)
        if (__builtin_mul_overflow(n, shape[a], &n))
            throw ShapeError("the dimensions " + shape.toString() + " multiply beyond int64");
    return n;
}

Shape withDim(const Shape& shape, int axis, std::int64_t dim)
{
    Shape out = shape;
    out[axis] = dim;
    return out;
}

SliceSpec sliceSpecFromAttrs(const Attrs& attrs)
{
    return {attrs.getInts("begin"), attrs.getInts("end"), attrs.getInts("strides")};
}

namespace {
std::int64_t sliceLength(std::int64_t begin, std::int64_t end, std::int64_t stride)
{
    if (stride > 0)
        return begin >= end ? 0 : (end - begin + stride - 1) / stride;
    return begin <= end ? 0 : (begin - end - stride - 1) / -stride;
}
} // namespace

Shape slicedShape(const OpCall& call, const Shape& shape, const SliceSpec& spec)
{
    const auto rank = static_cast<std::size_t>(shape.rank());
    if (spec.begin.size() != rank || spec.end.size() != rank || spec.strides.size() != rank)
        throwValueError(call, "begin, end and strides need one entry per axis (" + std::to_string(rank)
                                  + "), got " + std::to_string(spec.begin.size()) + ", "
                                  + std::to_string(spec.end.size()) + " and " + std::to_string(spec.strides.size()));
    Shape out;
    for (std::size_t a = 0; a < rank; ++a) {
        const std::int64_t dim = shape[static_cast<int>(a)];
        const std::int64_t stride = spec.strides[a];
        if (stride == 0)
            throwValueError(call, "stride of axis " + std::to_string(a) + " is 0");
        // Positive strides index [0, dim]; negative ones [-1, dim - 1], where -1 is "before 0".
        const std::int64_t lo = stride > 0 ? 0 : -1;
        const std::int64_t hi = stride > 0 ? dim : dim - 1;
        for (const std::int64_t bound : {spec.begin[a], spec.end[a]})
            if (bound < lo || bound > hi)
                throwValueError(call, "bound " + std::to_string(bound) + " of axis " + std::to_string(a)
                                          + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi)
                                          + "] for size " + std::to_string(dim) + " and stride "
                                          + std::to_string(stride));
        out.push_back(sliceLength(spec.begin[a], spec.end[a], stride));
    }
    return out;
}

void sliceLayout(const Shape& shape, const SliceSpec& spec, std::int64_t& offset, AxisStrides& strides)
{
    const AxisStrides dense = contiguousStrides(shape);
    offset = 0;
    strides = {};
    for (int a = 0; a < shape.rank(); ++a) {
        const auto ax = static_cast<std::size_t>(a);
        // An empty slice may start at -1 or dim; it is never read, so its offset must not matter.
        if (sliceLength(spec.begin[ax], spec.end[ax], spec.strides[ax]) == 0) {
            offset = 0;
            strides = {};
            return;
        }
        offset += spec.begin[ax] * dense[ax];
        strides[ax] = spec.strides[ax] * dense[ax];
    }
}

} // namespace gradstep

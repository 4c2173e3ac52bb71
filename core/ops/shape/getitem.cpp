// getitem: NumPy/MindSpore indexing x[...] built from the primitive ops, so it is differentiable
// through them. Not an op of its own:
//   1. ints and slices (steps of either sign) become one StridedSlice; ints, NewAxis and the
//      dropped axes then become one Reshape (a view);
//   2. integer-tensor indices ("advanced" indices; several broadcast together) become one Gather:
//      one index gathers along its axis; several are merged into one flat index over their axes,
//      which are first made adjacent (Transpose) and merged (Reshape). As in NumPy, the broadcast
//      index dimensions replace the indexed axes when those are adjacent, and go first otherwise;
//      an int next to a tensor index counts as a 0-D tensor index;
//   3. a Bool mask covering k axes selects its True positions: it is k integer indices (its
//      nonzero coordinates), so the result's length along them depends on the mask's values.
// Errors: an int or tensor index out of range is an IndexError naming the index, the axis and
// its size; a mask whose shape differs from the axes it covers, too many indices, two ellipses,
// or a float index tensor are IndexErrors too; a zero slice step is a ValueError.
// SPDX-License-Identifier: MIT
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

#include <algorithm>
#include <optional>

namespace gradstep {

namespace {

// One index after ellipsis expansion; `axis` is the input axis it consumes.
struct Entry {
    IndexItem::Kind kind;
    int axis = 0;
    std::int64_t begin = 0, end = 0, step = 1; // Int and Slice, normalised for StridedSlice
    Tensor indices;                            // Tensor: Int32/Int64 (masks are expanded)
};

[[noreturn]] void indexError(const Tensor& x, const std::string& message)
{
    throw IndexError("for 'getitem', " + message + " (tensor of shape " + x.shape().toString() + ")");
}

std::string outOfBounds(std::int64_t index, int axis, std::int64_t size)
{
    return "index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) + " with size "
           + std::to_string(size);
}

int consumedAxes(const IndexItem& item)
{
    switch (item.kind) {
    case IndexItem::Kind::Int:
    case IndexItem::Kind::Slice: return 1;
    case IndexItem::Kind::Tensor: return item.tensor.dtype() == DType::Bool ? item.tensor.rank() : 1;
    case IndexItem::Kind::Ellipsis:
    case IndexItem::Kind::NewAxis: break;
    }
    return 0;
}

// Python's slice.indices(dim), with -1 as "before 0" for negative steps (StridedSlice's form).
Entry sliceEntry(const IndexItem& item, int axis, std::int64_t dim)
{
    const std::int64_t step = item.step.value_or(1);
    if (step == 0)
        throw ValueError("for 'getitem', slice step of axis " + std::to_string(axis) + " cannot be zero");
    const std::int64_t lower = step > 0 ? 0 : -1;
    const std::int64_t upper = step > 0 ? dim : dim - 1;
    auto adjust = [&](std::optional<std::int64_t> bound, std::int64_t fallback) {
        if (!bound)
            return fallback;
        std::int64_t v = *bound;
        if (v < 0)
            v = std::max(v + dim, lower);
        return std::min(v, upper);
    };
    Entry e{IndexItem::Kind::Slice, axis, 0, 0, 1, {}};
    e.begin = adjust(item.start, step > 0 ? lower : upper);
    e.end = adjust(item.stop, step > 0 ? upper : lower);
    e.step = step;
    return e;
}

// The coordinates of the True elements of a mask covering axes [axis, axis + rank).
void appendMask(std::vector<Entry>& entries, const Tensor& x, const Tensor& mask, int axis)
{
    for (int a = 0; a < mask.rank(); ++a)
        if (mask.shape()[a] != x.shape()[axis + a])
            indexError(x, "boolean index of shape " + mask.shape().toString() + " does not match the indexed axes "
                              + std::to_string(axis) + ".." + std::to_string(axis + mask.rank() - 1) + " (size "
                              + std::to_string(x.shape()[axis + a]) + " at axis " + std::to_string(axis + a)
                              + ", mask size " + std::to_string(mask.shape()[a]) + ")");
    const bool* p = mask.data<bool>();
    std::vector<std::int64_t> flat;
    for (std::int64_t i = 0; i < mask.numel(); ++i)
        if (p[i])
            flat.push_back(i);
    const AxisStrides strides = contiguousStrides(mask.shape());
    for (int a = 0; a < mask.rank(); ++a) {
        Tensor coords = Tensor::empty(Shape{static_cast<std::int64_t>(flat.size())}, DType::Int64);
        auto* c = coords.data<std::int64_t>();
        for (std::size_t i = 0; i < flat.size(); ++i)
            c[i] = flat[i] / strides[static_cast<std::size_t>(a)] % mask.shape()[a];
        entries.push_back({IndexItem::Kind::Tensor, axis + a, 0, 0, 1, coords});
    }
}

// Validates the items and returns how many input axes they index (an ellipsis aside).
int indexedAxes(const Tensor& x, const std::vector<IndexItem>& index)
{
    int consumed = 0, ellipses = 0;
    for (const IndexItem& item : index) {
        if (item.kind == IndexItem::Kind::Tensor && !item.tensor.defined())
            indexError(x, "a tensor index is undefined");
        if (item.kind == IndexItem::Kind::Tensor && item.tensor.dtype() == DType::Bool && item.tensor.rank() == 0)
            indexError(x, "a 0-D boolean index is not supported");
        if (item.kind == IndexItem::Kind::Tensor && isFloating(item.tensor.dtype()))
            indexError(x, "tensor indices must be integers or booleans, got "
                              + std::string(dtypeName(item.tensor.dtype())));
        consumed += consumedAxes(item);
        ellipses += item.kind == IndexItem::Kind::Ellipsis;
    }
    if (ellipses > 1)
        indexError(x, "an index can only have a single ellipsis");
    if (consumed > x.rank())
        indexError(x, "too many indices: " + std::to_string(consumed) + " axes indexed, the tensor has "
                          + std::to_string(x.rank()));
    return consumed;
}

// Expands the ellipsis (or pads with full slices) and turns masks into integer indices.
std::vector<Entry> expand(const Tensor& x, const std::vector<IndexItem>& index)
{
    const int consumed = indexedAxes(x, index);
    std::vector<Entry> entries;
    int axis = 0;
    auto fullSlices = [&](int count) {
        for (int i = 0; i < count; ++i, ++axis)
            entries.push_back(sliceEntry(IndexItem::slice({}, {}), axis, x.shape()[axis]));
    };
    for (const IndexItem& item : index) {
        switch (item.kind) {
        case IndexItem::Kind::Ellipsis: fullSlices(x.rank() - consumed); break;
        case IndexItem::Kind::NewAxis: entries.push_back({IndexItem::Kind::NewAxis, axis, 0, 0, 1, {}}); break;
        case IndexItem::Kind::Slice: entries.push_back(sliceEntry(item, axis, x.shape()[axis])); ++axis; break;
        case IndexItem::Kind::Int: {
            const std::int64_t dim = x.shape()[axis];
            if (item.value < -dim || item.value >= dim)
                indexError(x, outOfBounds(item.value, axis, dim));
            const std::int64_t i = item.value < 0 ? item.value + dim : item.value;
            entries.push_back({IndexItem::Kind::Int, axis++, i, i + 1, 1, {}});
            break;
        }
        case IndexItem::Kind::Tensor:
            if (item.tensor.dtype() == DType::Bool) {
                appendMask(entries, x, item.tensor, axis);
                axis += item.tensor.rank();
            } else {
                entries.push_back({IndexItem::Kind::Tensor, axis++, 0, 0, 1, item.tensor});
            }
            break;
        }
    }
    fullSlices(x.rank() - axis);
    return entries;
}

// Ints and slices as one StridedSlice, then ints dropped and new axes added by one Reshape.
// Returns the axes (in the result) that the tensor entries index.
Tensor basicIndex(const Tensor& x, const std::vector<Entry>& entries, std::vector<int>& advancedAxes)
{
    SliceSpec spec;
    for (int a = 0; a < x.rank(); ++a) {
        spec.begin.push_back(0);
        spec.end.push_back(x.shape()[a]);
        spec.strides.push_back(1);
    }
    bool sliced = false;
    for (const Entry& e : entries)
        if (e.kind == IndexItem::Kind::Int || e.kind == IndexItem::Kind::Slice) {
            const auto a = static_cast<std::size_t>(e.axis);
            spec.begin[a] = e.begin;
            spec.end[a] = e.end;
            spec.strides[a] = e.step;
            sliced = sliced || e.begin != 0 || e.end != x.shape()[e.axis] || e.step != 1;
        }
    Tensor y = sliced ? stridedSlice(x, spec.begin, spec.end, spec.strides) : x;
    std::vector<std::int64_t> shape;
    for (const Entry& e : entries) {
        if (e.kind == IndexItem::Kind::NewAxis)
            shape.push_back(1);
        else if (e.kind != IndexItem::Kind::Int) {
            if (e.kind == IndexItem::Kind::Tensor)
                advancedAxes.push_back(static_cast<int>(shape.size()));
            shape.push_back(y.shape()[e.axis]);
        }
    }
    return Shape(shape) == y.shape() ? y : reshape(y, shape);
}

// The flat index over the merged advanced axes: sum_j index_j * stride_j, broadcast together and
// range-checked (negative indices count from the end).
Tensor flatIndex(const Tensor& x, const std::vector<const Entry*>& arrays)
{
    Shape shape;
    for (const Entry* e : arrays) {
        try {
            shape = broadcastShapes(shape, e->indices.shape(), "getitem");
        } catch (const ShapeError&) {
            indexError(x, "shape mismatch: index tensors of shapes " + shape.toString() + " and "
                              + e->indices.shape().toString() + " cannot be broadcast together");
        }
    }
    Tensor flat = Tensor::zeros(shape, DType::Int64);
    auto* out = flat.data<std::int64_t>();
    std::int64_t stride = 1;
    for (auto it = arrays.rbegin(); it != arrays.rend(); ++it) {
        const Entry& e = **it;
        const std::int64_t dim = x.shape()[e.axis];
        const std::vector<std::int64_t> values = indexValues(e.indices);
        const AxisStrides from = contiguousStrides(e.indices.shape());
        const int lead = shape.rank() - e.indices.rank();
        for (std::int64_t i = 0; i < flat.numel(); ++i) {
            std::int64_t rest = i, source = 0;
            for (int a = shape.rank() - 1; a >= lead; --a) {
                const std::int64_t coord = rest % shape[a];
                rest /= shape[a];
                if (e.indices.shape()[a - lead] != 1)
                    source += coord * from[static_cast<std::size_t>(a - lead)];
            }
            const std::int64_t v = values[static_cast<std::size_t>(source)];
            if (v < -dim || v >= dim)
                indexError(x, outOfBounds(v, e.axis, dim));
            out[i] += (v < 0 ? v + dim : v) * stride;
        }
        stride *= dim;
    }
    return flat;
}

// Gathers y at the advanced indices, found at `axes` of y (increasing).
Tensor advancedIndex(const Tensor& x, Tensor y, const std::vector<const Entry*>& arrays, const std::vector<int>& axes)
{
    const std::size_t k = axes.size();
    bool adjacent = true;
    for (std::size_t j = 1; j < k; ++j)
        adjacent = adjacent && axes[j] == axes[0] + static_cast<int>(j);
    if (!adjacent) {
        std::vector<std::int64_t> perm(axes.begin(), axes.end());
        for (int a = 0; a < y.rank(); ++a)
            if (std::find(axes.begin(), axes.end(), a) == axes.end())
                perm.push_back(a);
        y = transpose(y, perm);
    }
    const int first = adjacent ? axes[0] : 0;
    const Tensor flat = flatIndex(x, arrays);
    if (k == 1)
        return gather(y, flat, first);
    std::vector<std::int64_t> merged;
    for (int a = 0; a < y.rank(); ++a) {
        if (a > first && a < first + static_cast<int>(k))
            merged.back() *= y.shape()[a];
        else
            merged.push_back(y.shape()[a]);
    }
    return gather(reshape(y, merged), flat, first);
}

} // namespace

Tensor getitem(const Tensor& x, const std::vector<IndexItem>& index)
{
    std::vector<Entry> entries = expand(x, index);
    std::vector<const Entry*> arrays;
    for (const Entry& e : entries)
        if (e.kind == IndexItem::Kind::Tensor)
            arrays.push_back(&e);
    // Next to a tensor index an int is a 0-D tensor index, which decides where NumPy puts the
    // broadcast dimensions (x[0, :, idx] has idx's dimensions first).
    if (!arrays.empty()) {
        arrays.clear();
        for (Entry& e : entries) {
            if (e.kind == IndexItem::Kind::Int) {
                e.kind = IndexItem::Kind::Tensor;
                e.indices = Tensor::scalar(static_cast<double>(e.begin), DType::Int64);
            }
            if (e.kind == IndexItem::Kind::Tensor)
                arrays.push_back(&e);
        }
    }
    std::vector<int> axes;
    Tensor y = basicIndex(x, entries, axes);
    return arrays.empty() ? y : advancedIndex(x, y, arrays, axes);
}

} // namespace gradstep

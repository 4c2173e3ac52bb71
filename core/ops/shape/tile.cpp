// tile: y = x repeated multiples[a] times along each axis a. When multiples is longer than x's
// rank, x is first viewed with leading axes of size 1 (MindSpore's Tile). Multiples are
// non-negative (0 gives an empty axis). dy/dx: the gradient summed over the repeats, i.e.
// viewed as (m_0, d_0, m_1, d_1, ...) and summed over the m axes. NaN/Inf are carried through.
// SPDX-License-Identifier: MIT
#include "ops/reduction.h"
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

namespace gradstep {

namespace {
// x's shape padded with leading ones to the length of multiples.
Shape paddedShape(const OpCall& call)
{
    const Tensor& x = call.input(0);
    const std::vector<std::int64_t> multiples = call.attrs.getInts("multiples");
    const int rank = static_cast<int>(multiples.size());
    if (rank > Shape::kMaxRank)
        throwValueError(call, "multiples has " + std::to_string(rank) + " entries, more than the maximum rank "
                                  + std::to_string(Shape::kMaxRank));
    if (rank < x.rank())
        throwValueError(call, "multiples has " + std::to_string(rank) + " entries, expected at least the rank "
                                  + std::to_string(x.rank()));
    Shape padded;
    for (int a = 0; a < rank; ++a) {
        if (multiples[static_cast<std::size_t>(a)] < 0)
            throwValueError(call, "multiple " + std::to_string(multiples[static_cast<std::size_t>(a)]) + " of axis "
                                      + std::to_string(a) + " is negative");
        padded.push_back(a < rank - x.rank() ? 1 : x.shape()[a - (rank - x.rank())]);
    }
    return padded;
}

void inferTile(const OpCall& call, SpecList& out)
{
    const Shape padded = paddedShape(call);
    const std::vector<std::int64_t> multiples = call.attrs.getInts("multiples");
    Shape shape;
    std::int64_t elements = 1;
    for (int a = 0; a < padded.rank(); ++a) {
        // Checked: huge multiples would overflow int64 (undefined behaviour) before any allocation.
        std::int64_t dim = 0;
        if (__builtin_mul_overflow(padded[a], multiples[static_cast<std::size_t>(a)], &dim)
            || __builtin_mul_overflow(elements, dim, &elements))
            throwShapeError(call, "the multiples give a result with more elements than int64 can count");
        shape.push_back(dim);
    }
    out.push_back({shape, call.input(0).dtype()});
}

void forwardTile(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    const Shape padded = paddedShape(call);
    const Shape& os = out.shape();
    const std::int64_t n = out.numel();
    if (n == 0)
        return;
    const int rank = os.rank();
    const AxisStrides strides = contiguousStrides(padded);
    visitDataDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* px = static_cast<const T*>(x.rawData());
        T* po = static_cast<T*>(out.rawData());
        if (rank == 0) {
            po[0] = px[0];
            return;
        }
        const std::int64_t inner = os[rank - 1];
        const std::int64_t width = padded[rank - 1];
        AxisStrides counter{};
        std::int64_t row = 0; // offset of the input row the current output row repeats
        for (std::int64_t done = 0; done < n; done += inner) {
            for (std::int64_t j = 0; j < inner; ++j)
                po[done + j] = px[row + j % width];
            for (int axis = rank - 2; axis >= 0; --axis) {
                const auto ax = static_cast<std::size_t>(axis);
                ++counter[ax];
                row += strides[ax];
                if (counter[ax] % padded[axis] == 0)
                    row -= strides[ax] * padded[axis];
                if (counter[ax] < os[axis])
                    break;
                counter[ax] = 0;
            }
        }
    });
}

// Sums the repeats in one reshape + reduce when the interleaved shape fits in kMaxRank axes,
// else one axis at a time through a rank-4 view.
Tensor sumRepeats(const Tensor& grad, const Shape& padded, const std::vector<std::int64_t>& multiples)
{
    std::vector<std::int64_t> interleaved, axes;
    for (int a = 0; a < padded.rank(); ++a) {
        if (multiples[static_cast<std::size_t>(a)] != 1) {
            axes.push_back(static_cast<std::int64_t>(interleaved.size()));
            interleaved.push_back(multiples[static_cast<std::size_t>(a)]);
        }
        interleaved.push_back(padded[a]);
    }
    if (axes.empty())
        return grad;
    if (interleaved.size() <= static_cast<std::size_t>(Shape::kMaxRank))
        return reduceSum(reshape(grad, interleaved), axes);
    Tensor g = grad;
    Shape current = grad.shape();
    for (int a = 0; a < padded.rank(); ++a) {
        const std::int64_t m = multiples[static_cast<std::size_t>(a)];
        if (m == 1)
            continue;
        g = reduceSum(reshape(g, {dimProduct(current, 0, a), m, padded[a], dimProduct(current, a + 1, current.rank())}),
                      {1});
        current[a] = padded[a];
    }
    return g;
}

TensorList backwardTile(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    // An empty result (a zero multiple, or x empty) repeats nothing: every gradient is zero. The
    // interleaved view below could not even be counted when other multiples are huge.
    if (grads[0].numel() == 0)
        return {zerosLike(x)};
    const std::vector<std::int64_t> multiples = ctx.attrs().getInts("multiples");
    Shape padded;
    for (std::size_t a = 0; a < multiples.size(); ++a) {
        const int lead = static_cast<int>(multiples.size()) - x.rank();
        padded.push_back(static_cast<int>(a) < lead ? 1 : x.shape()[static_cast<int>(a) - lead]);
    }
    return {reshape(sumRepeats(grads[0], padded, multiples), x.shape().toVector())};
}
} // namespace

const OpDef kTile{"Tile", "tile", OpKind::Shape, 1, 1, inferTile, forwardTile, backwardTile};

Tensor tile(const Tensor& x, const std::vector<std::int64_t>& multiples)
{
    Attrs attrs;
    attrs.set("multiples", multiples);
    return callOp1(kTile, {x}, attrs);
}

} // namespace gradstep

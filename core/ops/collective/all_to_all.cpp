// AlltoAll(split_count, split_dim, concat_dim): x is cut along split_dim into split_count equal
// blocks (split_count = ranks in the group); block r goes to rank r, and the blocks received,
// in rank order, are concatenated along concat_dim. MindSpore's bprop is the exchange back:
// dx = AlltoAll(split_count, concat_dim, split_dim)(dy). SPDX-License-Identifier: MIT
#include "ops/collective/defs.h"

#include "ops/collective_ops.h"
#include "ops/dispatch.h"
#include "tensor/dtype.h"

#include <cstring>
#include <vector>

namespace gradstep {

namespace {

std::int64_t axis(const OpCall& call, const char* name)
{
    const std::int64_t rank = call.input(0).rank();
    std::int64_t a = call.attrs.getInt(name);
    if (a < -rank || a >= rank)
        throwValueError(call, std::string("the '") + name + "' must be in [" + std::to_string(-rank) + ", "
                                  + std::to_string(rank) + "), but got " + std::to_string(a));
    return a < 0 ? a + rank : a;
}

std::int64_t product(const Shape& shape, std::int64_t from, std::int64_t to)
{
    std::int64_t p = 1;
    for (std::int64_t a = from; a < to; ++a)
        p *= shape[static_cast<int>(a)];
    return p;
}

void inferAlltoAll(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    collective::elementType(call, x.dtype());
    if (x.rank() == 0)
        throwShapeError(call, "the 'input_x' must have at least one dimension, but got a scalar");
    const std::int64_t count = call.attrs.getInt("split_count");
    const std::int64_t ranks = collective::groupSize(call);
    if (count != ranks)
        throwValueError(call, "the 'split_count' must be equal to the group size " + std::to_string(ranks)
                                  + ", but got " + std::to_string(count));
    const std::int64_t split = axis(call, "split_dim"), concat = axis(call, "concat_dim");
    if (x.shape()[static_cast<int>(split)] % count != 0)
        throwShapeError(call, "the dimension " + std::to_string(split) + " of 'input_x' must be divisible by "
                                  "'split_count' " + std::to_string(count) + ", but got shape " + x.shape().toString());
    Shape shape = x.shape();
    shape[static_cast<int>(split)] /= count;
    shape[static_cast<int>(concat)] *= count;
    out.push_back({shape, x.dtype()});
}

// Copies block b of `count` blocks along `axis` between a tensor laid out as [outer, count,
// inner] and a packed buffer laid out as [count, outer, inner] (bytes).
void forwardAlltoAll(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const std::int64_t count = call.attrs.getInt("split_count");
    const std::int64_t split = axis(call, "split_dim"), concat = axis(call, "concat_dim");
    const std::size_t item = itemSize(x.dtype());
    Shape piece = x.shape();
    piece[static_cast<int>(split)] /= count;
    const std::int64_t outerIn = product(x.shape(), 0, split);
    const std::int64_t innerIn = product(piece, split, piece.rank());
    const std::int64_t outerOut = product(piece, 0, concat);
    const std::int64_t innerOut = product(piece, concat, piece.rank());
    const std::int64_t block = outerIn * innerIn; // elements per piece
    std::vector<char> send(static_cast<std::size_t>(block * count) * item), received(send.size());
    const char* in = static_cast<const char*>(x.rawData());
    for (std::int64_t r = 0; r < count; ++r)
        for (std::int64_t o = 0; o < outerIn; ++o)
            std::memcpy(send.data() + static_cast<std::size_t>((r * outerIn + o) * innerIn) * item,
                        in + static_cast<std::size_t>((o * count + r) * innerIn) * item,
                        static_cast<std::size_t>(innerIn) * item);
    dist::allToAll(send.data(), received.data(), block, collective::elementType(call, x.dtype()),
                   collective::group(call.attrs), "AlltoAll");
    char* out = static_cast<char*>(outputs[0].rawData());
    for (std::int64_t r = 0; r < count; ++r)
        for (std::int64_t o = 0; o < outerOut; ++o)
            std::memcpy(out + static_cast<std::size_t>((o * count + r) * innerOut) * item,
                        received.data() + static_cast<std::size_t>((r * outerOut + o) * innerOut) * item,
                        static_cast<std::size_t>(innerOut) * item);
}

TensorList backwardAlltoAll(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Attrs& a = ctx.attrs();
    return {allToAll(grads[0], a.getInt("split_count"), a.getInt("concat_dim"), a.getInt("split_dim"),
                     collective::group(a))};
}

} // namespace

// writesInputs: see kAllReduce (collectives run alone and in program order).
const OpDef kAlltoAll{"AlltoAll", "all_to_all", OpKind::Other, 1, 1, inferAlltoAll, forwardAlltoAll,
                      backwardAlltoAll, false, ~std::uint64_t{0}, true};

Tensor allToAll(const Tensor& x, std::int64_t splitCount, std::int64_t splitDim, std::int64_t concatDim,
                const std::string& group)
{
    return callOp1(kAlltoAll, {x},
                   Attrs{{"split_count", splitCount}, {"split_dim", splitDim}, {"concat_dim", concatDim},
                         {"group", group}});
}

} // namespace gradstep

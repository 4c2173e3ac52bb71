// split: y_k = x[..., offset_k : offset_k + size_k, ...] along `axis`, either `output_num` equal
// parts (MindSpore's Split) or parts of the given `sizes` (SplitV; one size may be -1 and is
// inferred). A multi-output op. dy/dx = concat of the parts' gradients along `axis` (the engine
// hands zeros for parts that were not used). NaN/Inf are carried through untouched.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

#include <algorithm>
#include <cstring>

namespace gradstep {

namespace {
std::vector<std::int64_t> partSizes(const OpCall& call, std::int64_t dim)
{
    std::vector<std::int64_t> sizes = call.attrs.getInts("sizes", {});
    if (sizes.empty()) {
        const std::int64_t parts = call.attrs.getInt("output_num", 1);
        if (parts < 1)
            throwValueError(call, "output_num must be at least 1, got " + std::to_string(parts));
        // An empty axis divides into any number of parts; more parts than max(dim, 1) is refused
        // so a huge output_num cannot ask for billions of outputs.
        if (parts > std::max<std::int64_t>(dim, 1))
            throwValueError(call, "output_num " + std::to_string(parts) + " is larger than the dimension size "
                                      + std::to_string(dim));
        if (dim % parts != 0)
            throwShapeError(call, "cannot split a dimension of size " + std::to_string(dim) + " into "
                                      + std::to_string(parts) + " equal parts");
        return std::vector<std::int64_t>(static_cast<std::size_t>(parts), dim / parts);
    }
    std::int64_t known = 0;
    std::size_t inferred = sizes.size();
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] == -1 && inferred == sizes.size())
            inferred = i;
        else if (sizes[i] < 0)
            throwValueError(call, "size " + std::to_string(sizes[i]) + " is negative (only one -1 is inferred)");
        else if (sizes[i] > dim - known) // checked before adding: a huge size would overflow
            throwShapeError(call, "sizes add up to more than the dimension size " + std::to_string(dim));
        else
            known += sizes[i];
    }
    if (inferred < sizes.size() && known <= dim)
        sizes[inferred] = dim - known;
    else if (known != dim)
        throwShapeError(call, "sizes add up to " + std::to_string(known) + ", expected the dimension size "
                                  + std::to_string(dim));
    return sizes;
}

void inferSplit(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    const int axis = checkedAxis(call, call.attrs.getInt("axis", 0), x.rank());
    for (std::int64_t size : partSizes(call, x.shape()[axis]))
        out.push_back({withDim(x.shape(), axis, size), x.dtype()});
}

void forwardSplit(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const int axis = checkedAxis(call, call.attrs.getInt("axis", 0), x.rank());
    const std::size_t item = itemSize(x.dtype());
    const std::int64_t outer = dimProduct(x.shape(), 0, axis);
    const auto* src = static_cast<const unsigned char*>(x.rawData());
    for (std::int64_t o = 0; o < outer; ++o)
        for (Tensor& part : outputs) {
            const auto chunk = static_cast<std::size_t>(dimProduct(part.shape(), axis, part.rank())) * item;
            if (chunk == 0)
                continue;
            std::memcpy(static_cast<unsigned char*>(part.rawData()) + static_cast<std::size_t>(o) * chunk, src, chunk);
            src += chunk;
        }
}

TensorList backwardSplit(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    if (grads.size() == 1)
        return {grads[0]};
    return {concat(TensorList(grads.begin(), grads.end()), ctx.attrs().getInt("axis", 0))};
}
} // namespace

const OpDef kSplit{"Split", "split", OpKind::Shape, 1, 1, inferSplit, forwardSplit, backwardSplit};

TensorList split(const Tensor& x, std::int64_t axis, std::int64_t outputNum)
{
    Attrs attrs;
    attrs.set("axis", axis).set("output_num", outputNum);
    OutputList parts = callOp(kSplit, {&x, 1}, attrs);
    return {parts.begin(), parts.end()};
}

TensorList splitSizes(const Tensor& x, std::int64_t axis, const std::vector<std::int64_t>& sizes)
{
    Attrs attrs;
    attrs.set("axis", axis).set("sizes", sizes);
    if (sizes.empty())
        throw ValueError("for 'Split', sizes must not be empty");
    OutputList parts = callOp(kSplit, {&x, 1}, attrs);
    return {parts.begin(), parts.end()};
}

} // namespace gradstep

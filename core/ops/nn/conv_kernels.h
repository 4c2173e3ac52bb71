// The GEMM drivers of Conv2D and its two backprop ops (Note [Conv2D as GEMM] in conv_geometry.h):
// one im2col or col2im and one GEMM per image and group. SPDX-License-Identifier: MIT
#pragma once

#include "ops/nn/conv_cols.h"
#include "ops/nn/conv_geometry.h"
#include "tensor/gemm.h"

#include <algorithm>
#include <cstdint>
#include <memory>

namespace gradstep {

/// The col scratch buffer of one call, uninitialised (im2col writes every entry); none when the
/// image itself serves as the col matrix.
template <class T> std::unique_ptr<T[]> colBuffer(const ConvGeometry& g)
{
    if (g.directCol())
        return nullptr;
    return std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(g.colRows() * g.colCols()));
}

/// The col matrix of one image group: the image itself when directCol(), else its im2col copy.
template <class T> const T* colOf(const ConvGeometry& g, const T* image, T* buffer)
{
    if (g.directCol())
        return image;
    im2col(g, image, buffer);
    return buffer;
}

/// y = conv(x, w): one im2col and one GEMM per image and group.
template <class T> void convForward(const ConvGeometry& g, const T* x, const T* w, T* y)
{
    const std::int64_t rows = g.colRows(), cols = g.colCols();
    const auto buffer = colBuffer<T>(g);
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            const T* image = x + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width;
            const T* col = colOf(g, image, buffer.get());
            T* out = y + (n * g.outChannels + grp * g.groupOut()) * cols;
            gemm<T>(false, false, g.groupOut(), cols, rows, T(1), w + grp * g.groupOut() * rows, rows, col, cols,
                    T(0), out, cols);
        }
}

/// dx = conv^T(dy, w): W^T * dy per image and group, folded back by col2im.
template <class T> void convBackpropInput(const ConvGeometry& g, const T* dy, const T* w, T* dx)
{
    const std::int64_t rows = g.colRows(), cols = g.colCols();
    const auto buffer = colBuffer<T>(g);
    if (!g.directCol())
        std::fill(dx, dx + g.inputShape().numel(), T(0));
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            T* image = dx + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width;
            T* col = g.directCol() ? image : buffer.get();
            const T* grad = dy + (n * g.outChannels + grp * g.groupOut()) * cols;
            gemm<T>(true, false, rows, cols, g.groupOut(), T(1), w + grp * g.groupOut() * rows, rows, grad, cols,
                    T(0), col, cols);
            if (!g.directCol())
                col2imAdd(g, col, image);
        }
}

/// dW = sum over images of dy * col^T, per group.
template <class T> void convBackpropFilter(const ConvGeometry& g, const T* dy, const T* x, T* dw)
{
    const std::int64_t rows = g.colRows(), cols = g.colCols();
    const auto buffer = colBuffer<T>(g);
    std::fill(dw, dw + g.weightShape().numel(), T(0));
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            const T* image = x + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width;
            const T* col = colOf(g, image, buffer.get());
            const T* grad = dy + (n * g.outChannels + grp * g.groupOut()) * cols;
            gemm<T>(false, true, g.groupOut(), rows, cols, T(1), grad, cols, col, cols, T(1),
                    dw + grp * g.groupOut() * rows, rows);
        }
}

// The col matrices of a whole batch kept as one tensor (N, group * rows, cols), so that a graph
// can compute them once for Conv2D and again use them for the filter gradient
// (Note [Saved col matrices] in conv_cols_ops.h). The GEMMs are those of convForward and
// convBackpropFilter, in the same order, so the results are the same bit for bit.

/// cols[n] = im2col of every group of image n.
template <class T> void im2colBatch(const ConvGeometry& g, const T* x, T* cols)
{
    const std::int64_t block = g.colRows() * g.colCols();
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp)
            im2col(g, x + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width,
                   cols + (n * g.group + grp) * block);
}

/// dx = the sum of every col entry back at the image position it was copied from.
template <class T> void col2imBatch(const ConvGeometry& g, const T* cols, T* dx)
{
    const std::int64_t block = g.colRows() * g.colCols();
    std::fill(dx, dx + g.inputShape().numel(), T(0));
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp)
            col2imAdd(g, cols + (n * g.group + grp) * block,
                      dx + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width);
}

/// y = conv(x, w) from x's saved col matrices.
template <class T> void convForwardFromCols(const ConvGeometry& g, const T* cols, const T* w, T* y)
{
    const std::int64_t rows = g.colRows(), width = g.colCols();
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            const T* col = cols + (n * g.group + grp) * rows * width;
            T* out = y + (n * g.outChannels + grp * g.groupOut()) * width;
            gemm<T>(false, false, g.groupOut(), width, rows, T(1), w + grp * g.groupOut() * rows, rows, col, width,
                    T(0), out, width);
        }
}

/// y = conv(x, w) keeping every image's col matrices in cols: each is made and used by its GEMM
/// while it is still in cache (the GEMMs of convForward, so the same bits).
template <class T> void convForwardSavingCols(const ConvGeometry& g, const T* x, const T* w, T* y, T* cols)
{
    const std::int64_t rows = g.colRows(), width = g.colCols();
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            T* col = cols + (n * g.group + grp) * rows * width;
            im2col(g, x + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width, col);
            T* out = y + (n * g.outChannels + grp * g.groupOut()) * width;
            gemm<T>(false, false, g.groupOut(), width, rows, T(1), w + grp * g.groupOut() * rows, rows, col, width,
                    T(0), out, width);
        }
}

/// dW = sum over images of dy * col^T from x's saved col matrices.
template <class T> void convBackpropFilterFromCols(const ConvGeometry& g, const T* dy, const T* cols, T* dw)
{
    const std::int64_t rows = g.colRows(), width = g.colCols();
    std::fill(dw, dw + g.weightShape().numel(), T(0));
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            const T* col = cols + (n * g.group + grp) * rows * width;
            const T* grad = dy + (n * g.outChannels + grp * g.groupOut()) * width;
            gemm<T>(false, true, g.groupOut(), rows, width, T(1), grad, width, col, width, T(1),
                    dw + grp * g.groupOut() * rows, rows);
        }
}

/// Forward kernel of Conv2DBackpropInput (ForInput) and Conv2DBackpropFilter.
template <bool ForInput> void forwardConvBackprop(const OpCall& call, std::span<Tensor> outputs)
{
    const ConvGeometry g = backpropGeometry(call, ForInput);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* dy = call.input(0).data<T>();
        const T* operand = call.input(1).data<T>();
        if constexpr (ForInput)
            convBackpropInput<T>(g, dy, operand, outputs[0].data<T>());
        else
            convBackpropFilter<T>(g, dy, operand, outputs[0].data<T>());
    });
}

} // namespace gradstep

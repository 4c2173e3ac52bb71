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

/// Sums dW[g] += dy[n, g] * col^T over images, in the GEMM layout OpenBLAS runs fastest for the
/// shape (measured on LeNet-sized layers, tests/bench/nn_bench):
///  - more col rows than output channels (LeNet's second layer: 150 and 16): dW[g]^T += col *
///    dy[n, g]^T, transposed into dW at the end (288 -> 238 us for a batch of 32);
///  - and, when the images are small (at most 256 output positions) and the rows many (>= 128),
///    with dy[n, g] transposed first so the GEMM needs no transposed operand (238 -> 190 us);
///    with more positions the copy costs more than it saves.
template <class T> class FilterGradSum {
public:
    FilterGradSum(const ConvGeometry& g, T* dw)
        : m_g(g), m_dw(dw), m_transposed(g.colRows() > g.groupOut()),
          m_copyGrad(m_transposed && g.colCols() <= 256 && g.colRows() >= 128),
          m_sum(m_transposed ? std::make_unique<T[]>(static_cast<std::size_t>(g.weightShape().numel())) : nullptr),
          m_gradT(m_copyGrad ? std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(g.groupOut() * g.colCols()))
                             : nullptr)
    {
        if (!m_transposed)
            std::fill(dw, dw + g.weightShape().numel(), T(0));
    }
    void add(std::int64_t grp, const T* grad, const T* col)
    {
        const std::int64_t rows = m_g.colRows(), width = m_g.colCols(), out = m_g.groupOut();
        T* sum = m_transposed ? m_sum.get() + grp * rows * out : nullptr;
        if (m_copyGrad) {
            for (std::int64_t o = 0; o < out; ++o)
                for (std::int64_t j = 0; j < width; ++j)
                    m_gradT[static_cast<std::size_t>(j * out + o)] = grad[o * width + j];
            gemm<T>(false, false, rows, out, width, T(1), col, width, m_gradT.get(), out, T(1), sum, out);
        } else if (m_transposed) {
            gemm<T>(false, true, rows, out, width, T(1), col, width, grad, width, T(1), sum, out);
        } else {
            gemm<T>(false, true, out, rows, width, T(1), grad, width, col, width, T(1), m_dw + grp * out * rows, rows);
        }
    }
    void finish()
    {
        if (!m_transposed)
            return;
        const std::int64_t rows = m_g.colRows(), out = m_g.groupOut();
        for (std::int64_t grp = 0; grp < m_g.group; ++grp)
            for (std::int64_t o = 0; o < out; ++o)
                for (std::int64_t r = 0; r < rows; ++r)
                    m_dw[(grp * out + o) * rows + r] = m_sum[static_cast<std::size_t>((grp * rows + r) * out + o)];
    }

private:
    const ConvGeometry& m_g;
    T* m_dw;
    bool m_transposed, m_copyGrad;
    std::unique_ptr<T[]> m_sum; // value-initialised: the sums start at 0
    std::unique_ptr<T[]> m_gradT;
};

/// dW = sum over images of dy * col^T, per group.
template <class T> void convBackpropFilter(const ConvGeometry& g, const T* dy, const T* x, T* dw)
{
    const auto buffer = colBuffer<T>(g);
    FilterGradSum<T> sum(g, dw);
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            const T* image = x + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width;
            sum.add(grp, dy + (n * g.outChannels + grp * g.groupOut()) * g.colCols(), colOf(g, image, buffer.get()));
        }
    sum.finish();
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
    FilterGradSum<T> sum(g, dw);
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp)
            sum.add(grp, dy + (n * g.outChannels + grp * g.groupOut()) * width, cols + (n * g.group + grp) * rows * width);
    sum.finish();
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

// im2col and its adjoint col2im: the copies between an image group and its col matrix
// (Note [Conv2D as GEMM] in conv_geometry.h). SPDX-License-Identifier: MIT
//
// Note [Fixed-width runs]: with stride 1 a col row is H_out runs of W_out contiguous elements
// (LeNet's: 28 and 10). Copying or adding such short runs with a loop whose length is only known
// at run time costs more in loop control and alias checks than in data movement (im2col of
// LeNet's second layer: 190 us for 32 images). The copies are therefore instantiated for each
// width up to kMaxFixedRun, chosen once per call: a run then compiles to a few vector moves
// (46 us). Wider rows, strided rows and rows cut by the padding take the general loops.
#pragma once

#include "ops/nn/conv_geometry.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace gradstep {

namespace conv_detail {

inline constexpr std::int64_t kMaxFixedRun = 32;

// First and one-past-last output column whose input column ow * stride + offset lies in [0, width).
inline void validRange(std::int64_t offset, std::int64_t stride, std::int64_t width, std::int64_t outW,
                       std::int64_t& begin, std::int64_t& end)
{
    begin = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
    end = width - offset <= 0 ? 0 : (width - offset + stride - 1) / stride;
    begin = std::min(begin, outW);
    end = std::clamp(end, begin, outW);
}

template <class T> inline constexpr std::int64_t kLanes = 16 / static_cast<std::int64_t>(sizeof(T));

// A run of Width elements (0: the run's length is only known at run time).
template <std::int64_t Width> struct Run {
    template <class T> static void copy(const T* __restrict src, T* __restrict dst, std::int64_t n)
    {
        if constexpr (Width > 0)
            std::memcpy(dst, src, sizeof(T) * Width);
        else
            for (std::int64_t i = 0; i < n; ++i)
                dst[i] = src[i];
    }
    template <class T> static void add(const T* __restrict src, T* __restrict dst, std::int64_t n)
    {
        if constexpr (Width > 0 && Width % kLanes<T> != 0) {
            // GCC leaves a sum of odd length scalar; whole 16-byte chunks through locals vectorise.
            constexpr std::int64_t chunks = Width / kLanes<T>;
            for (std::int64_t k = 0; k < chunks; ++k) {
                T a[kLanes<T>], b[kLanes<T>];
                std::memcpy(a, src + k * kLanes<T>, sizeof(a));
                std::memcpy(b, dst + k * kLanes<T>, sizeof(b));
                for (std::int64_t i = 0; i < kLanes<T>; ++i)
                    b[i] += a[i];
                std::memcpy(dst + k * kLanes<T>, b, sizeof(b));
            }
            for (std::int64_t i = chunks * kLanes<T>; i < Width; ++i)
                dst[i] += src[i];
        } else {
            const std::int64_t count = Width > 0 ? Width : n;
            for (std::int64_t i = 0; i < count; ++i)
                dst[i] += src[i];
        }
    }
};

// Calls f(Run<W_out>{}) when stride-1 rows have a width with its own instantiation, else f(Run<0>{}).
template <class F, std::size_t... I> void withRun(const ConvGeometry& g, F&& f, std::index_sequence<I...>)
{
    const bool fixed = g.strideW == 1
                       && ((g.outW == static_cast<std::int64_t>(I) + 1
                            && (f(Run<static_cast<std::int64_t>(I) + 1>{}), true))
                           || ...);
    if (!fixed)
        f(Run<0>{});
}
template <class F> void withRun(const ConvGeometry& g, F&& f)
{
    withRun(g, f, std::make_index_sequence<static_cast<std::size_t>(kMaxFixedRun)>{});
}

template <class T> void im2colGeneral(const ConvGeometry& g, const T* image, T* col)
{
    const std::int64_t cols = g.colCols();
    for (std::int64_t c = 0; c < g.groupIn(); ++c) {
        const T* plane = image + c * g.height * g.width;
        for (std::int64_t kh = 0; kh < g.kernelH; ++kh)
            for (std::int64_t kw = 0; kw < g.kernelW; ++kw) {
                T* row = col + ((c * g.kernelH + kh) * g.kernelW + kw) * cols;
                const std::int64_t offW = kw * g.dilationW - g.padLeft;
                std::int64_t begin = 0, end = 0;
                validRange(offW, g.strideW, g.width, g.outW, begin, end);
                for (std::int64_t oh = 0; oh < g.outH; ++oh) {
                    T* out = row + oh * g.outW;
                    const std::int64_t ih = oh * g.strideH - g.padTop + kh * g.dilationH;
                    if (ih < 0 || ih >= g.height) {
                        std::fill(out, out + g.outW, T(0));
                        continue;
                    }
                    // Index arithmetic, not pointers: offW may point before the row.
                    const std::int64_t base = ih * g.width + offW;
                    for (std::int64_t ow = 0; ow < begin; ++ow)
                        out[ow] = T(0);
                    if (g.strideW == 1) // a padded 3x3, stride 1: one run of the image row
                        std::copy(plane + (base + begin), plane + (base + end), out + begin);
                    else
                        for (std::int64_t ow = begin; ow < end; ++ow)
                            out[ow] = plane[base + ow * g.strideW];
                    for (std::int64_t ow = end; ow < g.outW; ++ow)
                        out[ow] = T(0);
                }
            }
    }
}

template <class T> void col2imGeneral(const ConvGeometry& g, const T* col, T* image)
{
    const std::int64_t cols = g.colCols();
    for (std::int64_t c = 0; c < g.groupIn(); ++c) {
        T* plane = image + c * g.height * g.width;
        for (std::int64_t kh = 0; kh < g.kernelH; ++kh)
            for (std::int64_t kw = 0; kw < g.kernelW; ++kw) {
                const T* row = col + ((c * g.kernelH + kh) * g.kernelW + kw) * cols;
                const std::int64_t offW = kw * g.dilationW - g.padLeft;
                std::int64_t begin = 0, end = 0;
                validRange(offW, g.strideW, g.width, g.outW, begin, end);
                for (std::int64_t oh = 0; oh < g.outH; ++oh) {
                    const std::int64_t ih = oh * g.strideH - g.padTop + kh * g.dilationH;
                    if (ih < 0 || ih >= g.height)
                        continue;
                    const T* in = row + oh * g.outW;
                    const std::int64_t base = ih * g.width + offW;
                    if (g.strideW == 1) { // contiguous on both sides: a loop the compiler vectorizes
                        T* __restrict dst = plane + (base + begin);
                        const T* __restrict src = in + begin;
                        for (std::int64_t i = 0, n = end - begin; i < n; ++i)
                            dst[i] += src[i];
                        continue;
                    }
                    for (std::int64_t ow = begin; ow < end; ++ow)
                        plane[base + ow * g.strideW] += in[ow];
                }
            }
    }
}

// Without padding and with stride 1 along rows every col row is H_out whole runs: the loops
// below need no bounds checks. Locals instead of the geometry's fields, because memcpy may write
// any object and would make the compiler reload them after every run.
inline bool unpaddedRuns(const ConvGeometry& g)
{
    return g.strideW == 1 && g.padTop == 0 && g.padBottom == 0 && g.padLeft == 0 && g.padRight == 0;
}

// Calls run(imageOffset, colOffset) for every run of W_out elements, image-side runs at a stride
// of sH rows, col-side runs one after the other.
template <class F> void forEachUnpaddedRun(const ConvGeometry& g, F run)
{
    const std::int64_t channels = g.groupIn(), kernelH = g.kernelH, kernelW = g.kernelW, outH = g.outH, outW = g.outW;
    const std::int64_t planeSize = g.height * g.width, rowStep = g.strideH * g.width, cols = g.colCols();
    const std::int64_t khStep = g.dilationH * g.width, kwStep = g.dilationW;
    for (std::int64_t c = 0; c < channels; ++c)
        for (std::int64_t kh = 0; kh < kernelH; ++kh)
            for (std::int64_t kw = 0; kw < kernelW; ++kw) {
                const std::int64_t image = c * planeSize + kh * khStep + kw * kwStep;
                const std::int64_t col = ((c * kernelH + kh) * kernelW + kw) * cols;
                for (std::int64_t oh = 0; oh < outH; ++oh)
                    run(image + oh * rowStep, col + oh * outW);
            }
}

template <class R, class T> void im2colUnpadded(const ConvGeometry& g, const T* image, T* col)
{
    const std::int64_t outW = g.outW;
    forEachUnpaddedRun(g, [=](std::int64_t in, std::int64_t out) { R::copy(image + in, col + out, outW); });
}

template <class R, class T> void col2imUnpadded(const ConvGeometry& g, const T* col, T* image)
{
    const std::int64_t outW = g.outW;
    forEachUnpaddedRun(g, [=](std::int64_t out, std::int64_t in) { R::add(col + in, image + out, outW); });
}

} // namespace conv_detail

/// Copies the receptive fields of one image group (C_in/group planes) into col, zeros where
/// a field reaches into the padding.
template <class T> void im2col(const ConvGeometry& g, const T* image, T* col)
{
    if (!conv_detail::unpaddedRuns(g))
        return conv_detail::im2colGeneral(g, image, col);
    conv_detail::withRun(g, [&](auto run) { conv_detail::im2colUnpadded<decltype(run)>(g, image, col); });
}

/// The adjoint of im2col: adds every entry of col back into the image position it was copied from.
template <class T> void col2imAdd(const ConvGeometry& g, const T* col, T* image)
{
    if (!conv_detail::unpaddedRuns(g))
        return conv_detail::col2imGeneral(g, col, image);
    conv_detail::withRun(g, [&](auto run) { conv_detail::col2imUnpadded<decltype(run)>(g, col, image); });
}

} // namespace gradstep

// The 2x2 stride-2 max pool (LeNet's, VGG's) without the general window machinery.
// SPDX-License-Identifier: MIT
//
// Note [Tiled 2x2 pooling]: when the windows are 2x2 at stride 2 and start at (0, 0) without
// reaching past the image, they tile it: every input element lies in at most one window. The
// maximum of a window is then four loads and three selects, and MaxPoolGrad can write each
// element of dx exactly once (the gradient or 0) instead of zero-filling dx and scattering. The
// semantics are those of MaxPoolRows: the first maximum in row-major order wins ties, a NaN in a
// window is its maximum and takes the gradient (the first NaN when there are several).
#pragma once

#include "ops/nn/pool_geometry.h"

#include <algorithm>
#include <cstdint>

namespace gradstep {

/// True when the windows tile the image as Note [Tiled 2x2 pooling] requires.
inline bool isTiled2x2(const PoolGeometry& g)
{
    return g.kernelH == 2 && g.kernelW == 2 && g.strideH == 2 && g.strideW == 2 && g.padTop == 0 && g.padLeft == 0
           && 2 * g.outH <= g.height && 2 * g.outW <= g.width;
}

namespace pool_detail {
// max(a, b) that keeps a NaN from either side; a wins a tie, so a chain keeps the first maximum.
template <class T> inline T maxKeepNaN(T a, T b) { return b > a || b != b ? b : a; }

// Which of the window's four elements (row-major a, b, c, d) receives the gradient, as masks.
struct Winner {
    bool a, b, c, d;
};

template <class T> inline Winner winner(T a, T b, T c, T d)
{
    const T m = maxKeepNaN(maxKeepNaN(maxKeepNaN(a, b), c), d);
    // When m is NaN every NaN matches; when it is not, no element is NaN.
    const bool ea = a == m || a != a, eb = b == m || b != b, ec = c == m || c != c;
    return {ea, !ea && eb, !ea && !eb && ec, !ea && !eb && !ec};
}
} // namespace pool_detail

/// y = MaxPool(x) for a tiled 2x2 geometry.
template <class T> void maxPoolTiled2x2(const PoolGeometry& g, const T* x, T* y)
{
    for (std::int64_t p = 0; p < g.planes(); ++p)
        for (std::int64_t oh = 0; oh < g.outH; ++oh) {
            const T* r0 = x + (p * g.height + 2 * oh) * g.width;
            const T* r1 = r0 + g.width;
            T* out = y + (p * g.outH + oh) * g.outW;
            for (std::int64_t ow = 0; ow < g.outW; ++ow) {
                using pool_detail::maxKeepNaN;
                out[ow] = maxKeepNaN(maxKeepNaN(maxKeepNaN(r0[2 * ow], r0[2 * ow + 1]), r1[2 * ow]), r1[2 * ow + 1]);
            }
        }
}

/// dx = MaxPoolGrad(x, dy) for a tiled 2x2 geometry; writes every element of dx. With
/// MaskByInput, dx is also kept only where x > 0 (MaxPoolReluGrad: x is a ReLU's output).
template <bool MaskByInput = false, class T>
void maxPoolGradTiled2x2(const PoolGeometry& g, const T* x, const T* dy, T* dx)
{
    const auto keep = [](bool wins, T v) { return wins && (!MaskByInput || v > T(0)); };
    const std::int64_t planeSize = g.height * g.width;
    for (std::int64_t p = 0; p < g.planes(); ++p) {
        const T* xp = x + p * planeSize;
        T* dp = dx + p * planeSize;
        for (std::int64_t oh = 0; oh < g.outH; ++oh) {
            const std::int64_t r0 = 2 * oh * g.width, r1 = r0 + g.width;
            const T* grad = dy + (p * g.outH + oh) * g.outW;
            for (std::int64_t ow = 0; ow < g.outW; ++ow) {
                const std::int64_t c0 = 2 * ow, c1 = c0 + 1;
                const T a = xp[r0 + c0], b = xp[r0 + c1], c = xp[r1 + c0], d = xp[r1 + c1];
                const auto w = pool_detail::winner(a, b, c, d);
                dp[r0 + c0] = keep(w.a, a) ? grad[ow] : T(0);
                dp[r0 + c1] = keep(w.b, b) ? grad[ow] : T(0);
                dp[r1 + c0] = keep(w.c, c) ? grad[ow] : T(0);
                dp[r1 + c1] = keep(w.d, d) ? grad[ow] : T(0);
            }
            // An odd last column lies in no window.
            for (std::int64_t c = 2 * g.outW; c < g.width; ++c)
                dp[r0 + c] = dp[r1 + c] = T(0);
        }
        std::fill(dp + 2 * g.outH * g.width, dp + planeSize, T(0));
    }
}

/// dx = MaxPoolGrad(x, dy) for any geometry (the tiled case without scattering); with
/// MaskByInput, ReluGrad(MaxPoolGrad(x, dy), x) in the same pass.
template <bool MaskByInput = false, class T>
void maxPoolGradInto(const PoolGeometry& g, const T* x, const T* dy, T* dx)
{
    if (isTiled2x2(g))
        return maxPoolGradTiled2x2<MaskByInput>(g, x, dy, dx);
    const std::int64_t n = g.planes() * g.height * g.width;
    std::fill(dx, dx + n, T(0));
    MaxPoolRows<T>(g).run(x, true, [&](std::int64_t out, const T*, const std::int32_t* argmax, std::int64_t plane) {
        for (std::int64_t ow = 0; ow < g.outW; ++ow)
            dx[plane + argmax[ow]] += dy[out + ow];
    });
    if constexpr (MaskByInput)
        for (std::int64_t i = 0; i < n; ++i)
            dx[i] = x[i] > T(0) ? dx[i] : T(0);
}

/// y = MaxPoolGradGrad(x, grad): grad read at each window's winner, for a tiled 2x2 geometry.
template <class T> void maxPoolGradGradTiled2x2(const PoolGeometry& g, const T* x, const T* grad, T* y)
{
    const std::int64_t planeSize = g.height * g.width;
    for (std::int64_t p = 0; p < g.planes(); ++p) {
        const T* xp = x + p * planeSize;
        const T* gp = grad + p * planeSize;
        for (std::int64_t oh = 0; oh < g.outH; ++oh) {
            const std::int64_t r0 = 2 * oh * g.width, r1 = r0 + g.width;
            T* out = y + (p * g.outH + oh) * g.outW;
            for (std::int64_t ow = 0; ow < g.outW; ++ow) {
                const std::int64_t c0 = 2 * ow, c1 = c0 + 1;
                const auto w = pool_detail::winner(xp[r0 + c0], xp[r0 + c1], xp[r1 + c0], xp[r1 + c1]);
                out[ow] = w.a ? gp[r0 + c0] : w.b ? gp[r0 + c1] : w.c ? gp[r1 + c0] : gp[r1 + c1];
            }
        }
    }
}

} // namespace gradstep

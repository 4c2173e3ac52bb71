// The 2x2 stride-2 max pool (LeNet's, VGG's) without the general window machinery.
// SPDX-License-Identifier: MIT
//
// Note [Tiled 2x2 pooling]: when the windows are 2x2 at stride 2 and start at (0, 0) without
// reaching past the image, they tile it: every input element lies in at most one window. The
// maximum of a window is then four loads and three selects, and MaxPoolGrad can write each
// element of dx exactly once (the gradient or 0) instead of zero-filling dx and scattering. The
// semantics are those of MaxPoolRows: the first maximum in row-major order wins ties, a NaN in a
// window is its maximum and takes the gradient (the first NaN when there are several). The
// value MaxPool returns for a window with several NaNs is the last one's bits, as a left fold of
// `b > a || b is NaN ? b : a` over the window in row-major order gives. The kernels live in
// max_pool_tiled.cpp (Note [Vectorising the tiled kernels]).
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

/// y = MaxPool(x) for a tiled 2x2 geometry.
void maxPoolTiled2x2(const PoolGeometry& g, const float* x, float* y);
void maxPoolTiled2x2(const PoolGeometry& g, const double* x, double* y);

/// dx = MaxPoolGrad(x, dy) for a tiled 2x2 geometry; writes every element of dx. With
/// maskByInput, dx is also kept only where x > 0 (MaxPoolReluGrad: x is a ReLU's output).
void maxPoolGradTiled2x2(const PoolGeometry& g, const float* x, const float* dy, float* dx, bool maskByInput);
void maxPoolGradTiled2x2(const PoolGeometry& g, const double* x, const double* dy, double* dx, bool maskByInput);

/// y = MaxPoolGradGrad(x, grad): grad read at each window's winner, for a tiled 2x2 geometry.
void maxPoolGradGradTiled2x2(const PoolGeometry& g, const float* x, const float* grad, float* y);
void maxPoolGradGradTiled2x2(const PoolGeometry& g, const double* x, const double* grad, double* y);

/// y = MaxPool(x) for any geometry.
template <class T> void maxPoolInto(const PoolGeometry& g, const T* x, T* y)
{
    if (isTiled2x2(g))
        return maxPoolTiled2x2(g, x, y);
    MaxPoolRows<T>(g).run(x, false, [&](std::int64_t out, const T* maxima, const std::int32_t*, std::int64_t) {
        std::copy(maxima, maxima + g.outW, y + out);
    });
}

/// dx = MaxPoolGrad(x, dy) for any geometry (the tiled case without scattering); with
/// MaskByInput, ReluGrad(MaxPoolGrad(x, dy), x) in the same pass.
template <bool MaskByInput = false, class T>
void maxPoolGradInto(const PoolGeometry& g, const T* x, const T* dy, T* dx)
{
    if (isTiled2x2(g))
        return maxPoolGradTiled2x2(g, x, dy, dx, MaskByInput);
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

} // namespace gradstep

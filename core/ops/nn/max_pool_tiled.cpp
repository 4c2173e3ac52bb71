// The tiled 2x2 max-pool kernels of Note [Tiled 2x2 pooling]. SPDX-License-Identifier: MIT
//
// Note [Vectorising the tiled kernels]: the kernels walk one pair of input rows (one row of
// windows) at a time. Reading r0[2i], r0[2i + 1], r1[2i], r1[2i + 1] deinterleaves the even and
// odd columns (GCC emits shuffles), so each window is one vector lane and every comparison and
// select runs lane-wise, with no branch on the data. GCC 12 vectorises these loops at -O3 for
// baseline x86-64 (SSE2) only when they are written in a certain shape, which is fragile:
//  - every choice is `cond ? x : y` on T with `cond` made of comparisons of T joined by & | !;
//  - NaN flags are computed from the loaded elements, never from a selected value (`h != h` on
//    h = c ? x : y becomes a select between booleans, which the vectoriser rejects);
//  - an output depends on nested selects, not on several mutually exclusive conditions (jump
//    threading turns those into branches);
//  - winner() hands its flags back through references: a returned struct of bools stayed in
//    memory, which the vectoriser rejects;
//  - all loads are unconditional, and the row pointers are __restrict (no runtime alias checks:
//    an op's output never shares storage with its inputs, buffer_reuse included).
// tests/core/ops/nn/max_pool_tiled_test.cpp checks the bits against a scalar reference; check
// the loops still vectorise (-fopt-info-vec) after changing them, nn_bench shows it too.
//
// Each window (a b / c d) is reduced as its top pair, its bottom pair, then the two pairs. Both
// selection rules below pick an element fixed by position alone (the first maximum; the last
// NaN for MaxPool's value, the first NaN for the gradient), so they are associative: folding
// (a, b) and (c, d) first picks the same element, bits included, as the row-major left fold
// that defines the semantics. Pairing the columns first would not (-0.0 against 0.0, NaN bits).
#include "ops/nn/max_pool_tiled.h"

namespace gradstep {

namespace {
using Index = std::int64_t;

// The element MaxPool returns: y replaces x when greater or NaN, so the LAST NaN wins, else the
// first maximum (whose bits matter for -0.0 against 0.0). nanY is y != y, given by the caller.
template <class T> [[gnu::always_inline]] inline T keepNaNMax(T x, T y, bool nanY) { return ((y > x) | nanY) ? y : x; }

// Which element of a window (a b / c d) takes the gradient: the FIRST NaN, else the first
// maximum. right0: b beats a, right1: d beats c, lower: the bottom row's winner beats the top's.
template <class T>
[[gnu::always_inline]] inline void winner(T a, T b, T c, T d, bool& right0, bool& right1, bool& lower)
{
    const bool na = a != a, nb = b != b, nc = c != c, nd = d != d;
    // y beats x when y > x, or when y is NaN and x is not; `!(y <= x)` is y > x or either NaN.
    right0 = !(b <= a) & !na;
    right1 = !(d <= c) & !nc;
    const T top = right0 ? b : a, bottom = right1 ? d : c;
    // A row's winner is NaN exactly when the row holds a NaN.
    lower = (bottom > top) | ((nc | nd) & !(na | nb));
}

template <class T>
[[gnu::always_inline]] inline void maxRow(const T* __restrict r0, const T* __restrict r1, T* __restrict y, Index n)
{
    for (Index i = 0; i < n; ++i) {
        const T a = r0[2 * i], b = r0[2 * i + 1], c = r1[2 * i], d = r1[2 * i + 1];
        const bool nd = d != d;
        const T top = keepNaNMax(a, b, b != b), bottom = keepNaNMax(c, d, nd);
        y[i] = keepNaNMax(top, bottom, nd | (c != c));
    }
}

// dx rows d0, d1 of one row of windows: g[i] at the winner of window i, 0 at the other three.
template <bool MaskByInput, class T>
[[gnu::always_inline]] inline void gradRow(const T* __restrict r0, const T* __restrict r1, const T* __restrict g,
                                           T* __restrict d0, T* __restrict d1, Index n)
{
    for (Index i = 0; i < n; ++i) {
        const T a = r0[2 * i], b = r0[2 * i + 1], c = r1[2 * i], d = r1[2 * i + 1];
        bool right0, right1, lower;
        winner(a, b, c, d, right0, right1, lower);
        const T top = lower ? T(0) : g[i], bottom = lower ? g[i] : T(0);
        T ga = right0 ? T(0) : top, gb = right0 ? top : T(0);
        T gc = right1 ? T(0) : bottom, gd = right1 ? bottom : T(0);
        if constexpr (MaskByInput) {
            ga = a > T(0) ? ga : T(0);
            gb = b > T(0) ? gb : T(0);
            gc = c > T(0) ? gc : T(0);
            gd = d > T(0) ? gd : T(0);
        }
        d0[2 * i] = ga;
        d0[2 * i + 1] = gb;
        d1[2 * i] = gc;
        d1[2 * i + 1] = gd;
    }
}

// y[i] = the element of grad rows g0, g1 at the winner of window i.
template <class T>
[[gnu::always_inline]] inline void gradGradRow(const T* __restrict r0, const T* __restrict r1, const T* __restrict g0,
                                               const T* __restrict g1, T* __restrict y, Index n)
{
    for (Index i = 0; i < n; ++i) {
        bool right0, right1, lower;
        winner(r0[2 * i], r0[2 * i + 1], r1[2 * i], r1[2 * i + 1], right0, right1, lower);
        const T ga = g0[2 * i], gb = g0[2 * i + 1], gc = g1[2 * i], gd = g1[2 * i + 1];
        const T top = right0 ? gb : ga, bottom = right1 ? gd : gc;
        y[i] = lower ? bottom : top;
    }
}

template <class T> [[gnu::always_inline]] inline void maxPlanes(const PoolGeometry& g, const T* x, T* y)
{
    for (Index p = 0; p < g.planes(); ++p)
        for (Index oh = 0; oh < g.outH; ++oh) {
            const T* r0 = x + (p * g.height + 2 * oh) * g.width;
            maxRow(r0, r0 + g.width, y + (p * g.outH + oh) * g.outW, g.outW);
        }
}

template <bool MaskByInput, class T>
[[gnu::always_inline]] inline void gradPlanes(const PoolGeometry& g, const T* x, const T* dy, T* dx)
{
    const Index planeSize = g.height * g.width;
    for (Index p = 0; p < g.planes(); ++p) {
        const T* xp = x + p * planeSize;
        T* dp = dx + p * planeSize;
        for (Index oh = 0; oh < g.outH; ++oh) {
            const Index r0 = 2 * oh * g.width, r1 = r0 + g.width;
            gradRow<MaskByInput>(xp + r0, xp + r1, dy + (p * g.outH + oh) * g.outW, dp + r0, dp + r1, g.outW);
            // An odd last column lies in no window.
            for (Index c = 2 * g.outW; c < g.width; ++c)
                dp[r0 + c] = dp[r1 + c] = T(0);
        }
        std::fill(dp + 2 * g.outH * g.width, dp + planeSize, T(0));
    }
}

template <class T>
[[gnu::always_inline]] inline void gradGradPlanes(const PoolGeometry& g, const T* x, const T* grad, T* y)
{
    for (Index p = 0; p < g.planes(); ++p)
        for (Index oh = 0; oh < g.outH; ++oh) {
            const Index r0 = (p * g.height + 2 * oh) * g.width, r1 = r0 + g.width;
            gradGradRow(x + r0, x + r1, grad + r0, grad + r1, y + (p * g.outH + oh) * g.outW, g.outW);
        }
}
} // namespace

// The build targets baseline x86-64; where the CPU has AVX2 the loops run on vectors twice as
// wide (nn_bench: the float64 kernels 1.3-1.7x faster, float32 ones 5-17 % on 28x28 inputs, the
// same on 10x10 ones, whose rows of 5 windows are too short for wider vectors to pay).
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define GRADSTEP_POOL_CLONES [[gnu::target_clones("avx2", "default")]]
#else
#define GRADSTEP_POOL_CLONES
#endif

GRADSTEP_POOL_CLONES void maxPoolTiled2x2(const PoolGeometry& g, const float* x, float* y) { maxPlanes(g, x, y); }
GRADSTEP_POOL_CLONES void maxPoolTiled2x2(const PoolGeometry& g, const double* x, double* y) { maxPlanes(g, x, y); }

GRADSTEP_POOL_CLONES void maxPoolGradTiled2x2(const PoolGeometry& g, const float* x, const float* dy, float* dx,
                                              bool maskByInput)
{
    maskByInput ? gradPlanes<true>(g, x, dy, dx) : gradPlanes<false>(g, x, dy, dx);
}

GRADSTEP_POOL_CLONES void maxPoolGradTiled2x2(const PoolGeometry& g, const double* x, const double* dy, double* dx,
                                              bool maskByInput)
{
    maskByInput ? gradPlanes<true>(g, x, dy, dx) : gradPlanes<false>(g, x, dy, dx);
}

GRADSTEP_POOL_CLONES void maxPoolGradGradTiled2x2(const PoolGeometry& g, const float* x, const float* grad, float* y)
{
    gradGradPlanes(g, x, grad, y);
}

GRADSTEP_POOL_CLONES void maxPoolGradGradTiled2x2(const PoolGeometry& g, const double* x, const double* grad,
                                                  double* y)
{
    gradGradPlanes(g, x, grad, y);
}

} // namespace gradstep

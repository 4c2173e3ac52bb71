// The row-normalisation kernel (see norm_kernel.h). Statistics are two passes over the row (mean,
// then the mean of squared deviations: no cancellation as in E[x^2] - E[x]^2); each pass is an
// Eigen array expression, vectorised. A row is walked in segments over which the affine index
// runs without wrapping around `params`.
// SPDX-License-Identifier: MIT
#include "ops/nn/norm_kernel.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gradstep {

namespace {

template <class T> using Arr = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T> using ArrOut = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

/// Calls f(firstBlock, count, firstIndex) for the segments of row r: blocks firstBlock ..
/// firstBlock + count - 1 have affine indices firstIndex .. firstIndex + count - 1.
template <class F> void forSegments(const NormLayout& l, std::int64_t r, F f)
{
    const std::int64_t blocks = l.length / l.block;
    for (std::int64_t k = 0; k < blocks;) {
        const std::int64_t index = (r * blocks + k) % l.params;
        const std::int64_t count = std::min(blocks - k, l.params - index);
        f(k, count, index);
        k += count;
    }
}

} // namespace

NormLayout layerNormLayout(const Shape& x, std::int64_t beginNormAxis, std::int64_t params)
{
    NormLayout layout;
    layout.rows = 1;
    layout.length = 1;
    const int axis = normalizeAxis(beginNormAxis, x.rank(), "LayerNorm");
    for (int a = 0; a < x.rank(); ++a)
        (a < axis ? layout.rows : layout.length) *= x[a];
    layout.params = params;
    return layout;
}

NormLayout groupNormLayout(const Shape& x, std::int64_t groups)
{
    NormLayout layout;
    std::int64_t spatial = 1;
    for (int a = 2; a < x.rank(); ++a)
        spatial *= x[a];
    layout.rows = x[0] * groups;
    layout.block = spatial;
    layout.length = x[1] / groups * spatial;
    layout.params = x[1];
    return layout;
}

template <class T>
void normForward(const T* x, const T* gamma, const T* beta, T* y, T* mean, T* var, const NormLayout& l, double eps)
{
    const std::int64_t L = l.length, S = l.block;
    for (std::int64_t r = 0; r < l.rows; ++r) {
        if (L == 0) { // the mean of nothing, as ReduceMean gives it
            mean[r] = var[r] = std::numeric_limits<T>::quiet_NaN();
            continue;
        }
        const Arr<T> xr(x + r * L, L);
        const T m = xr.sum() / T(L);
        const T v = (xr - m).square().sum() / T(L);
        const T rstd = T(1) / std::sqrt(v + T(eps));
        mean[r] = m;
        var[r] = v;
        T* yr = y + r * L;
        forSegments(l, r, [&](std::int64_t k, std::int64_t count, std::int64_t a) {
            if (S == 1) {
                ArrOut<T>(yr + k, count) =
                    (Arr<T>(x + r * L + k, count) - m) * rstd * Arr<T>(gamma + a, count) + Arr<T>(beta + a, count);
                return;
            }
            for (std::int64_t b = 0; b < count; ++b) {
                const T scale = rstd * gamma[a + b], shift = beta[a + b] - m * scale;
                ArrOut<T>(yr + (k + b) * S, S) = Arr<T>(x + r * L + (k + b) * S, S) * scale + shift;
            }
        });
    }
}

template <class T>
void normBackward(const T* x, const T* dy, const T* mean, const T* var, const T* gamma, const T* dmean,
                  const T* dvar, T* dx, T* dgamma, T* dbeta, const NormLayout& l, double eps)
{
    const std::int64_t L = l.length, S = l.block;
    std::fill(dgamma, dgamma + l.params, T(0));
    std::fill(dbeta, dbeta + l.params, T(0));
    if (L == 0)
        return;
    for (std::int64_t r = 0; r < l.rows; ++r) {
        const T m = mean[r], rstd = T(1) / std::sqrt(var[r] + T(eps));
        const T* xr = x + r * L;
        const T* gr = dy + r * L;
        // Pass 1: sum(gy) and sum(gy * (x - m)) over the row; dgamma, dbeta per affine index.
        T sumGy = 0, sumGyc = 0;
        forSegments(l, r, [&](std::int64_t k, std::int64_t count, std::int64_t a) {
            if (S == 1) {
                const Arr<T> xs(xr + k, count), gs(gr + k, count), gam(gamma + a, count);
                const auto centered = (xs - m).eval();
                sumGy += (gs * gam).sum();
                sumGyc += (gs * gam * centered).sum();
                ArrOut<T>(dgamma + a, count) += gs * centered * rstd;
                ArrOut<T>(dbeta + a, count) += gs;
                return;
            }
            for (std::int64_t b = 0; b < count; ++b) {
                const Arr<T> xs(xr + (k + b) * S, S), gs(gr + (k + b) * S, S);
                const T A = gs.sum(), B = (gs * (xs - m)).sum();
                sumGy += gamma[a + b] * A;
                sumGyc += gamma[a + b] * B;
                dgamma[a + b] += rstd * B;
                dbeta[a + b] += A;
            }
        });
        // Pass 2: dx = rstd * (gamma dy - c1 - (x - m) c2) + extra (x - m) + dmean / L.
        const T c1 = sumGy / T(L), c2 = rstd * rstd * sumGyc / T(L);
        const T shift = dmean ? dmean[r] / T(L) : T(0);
        const T slope = dvar ? T(2) * dvar[r] / T(L) : T(0);
        const T k2 = slope - rstd * c2; // coefficient of (x - m)
        const T k0 = shift - rstd * c1;
        T* dr = dx + r * L;
        forSegments(l, r, [&](std::int64_t k, std::int64_t count, std::int64_t a) {
            if (S == 1) {
                ArrOut<T>(dr + k, count) = rstd * Arr<T>(gamma + a, count) * Arr<T>(gr + k, count)
                                           + (Arr<T>(xr + k, count) - m) * k2 + k0;
                return;
            }
            for (std::int64_t b = 0; b < count; ++b) {
                const T scale = rstd * gamma[a + b];
                ArrOut<T>(dr + (k + b) * S, S) =
                    Arr<T>(gr + (k + b) * S, S) * scale + (Arr<T>(xr + (k + b) * S, S) - m) * k2 + k0;
            }
        });
    }
}

template void normForward(const float*, const float*, const float*, float*, float*, float*, const NormLayout&,
                          double);
template void normForward(const double*, const double*, const double*, double*, double*, double*, const NormLayout&,
                          double);
template void normBackward(const float*, const float*, const float*, const float*, const float*, const float*,
                           const float*, float*, float*, float*, const NormLayout&, double);
template void normBackward(const double*, const double*, const double*, const double*, const double*, const double*,
                           const double*, double*, double*, double*, const NormLayout&, double);

} // namespace gradstep

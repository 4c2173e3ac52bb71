// The batch-normalisation kernel (see batch_norm_kernel.h): two passes for the statistics (mean,
// then squared deviations) and one for y; backward one pass for the two sums and one for dx. Each
// run of `spatial` elements is an Eigen array expression (vectorised).
// SPDX-License-Identifier: MIT
#include "ops/nn/batch_norm_kernel.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>

namespace gradstep {

namespace {
template <class T> using Arr = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T> using ArrOut = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
} // namespace

BatchLayout batchLayout(const Shape& x)
{
    BatchLayout l;
    l.batch = x[0];
    l.channels = x[1];
    for (int a = 2; a < x.rank(); ++a)
        l.spatial *= x[a];
    return l;
}

template <class T>
void batchNormForward(const T* x, const T* scale, const T* bias, T* mean, T* var, T* y, const BatchLayout& l,
                      double eps, bool training)
{
    const std::int64_t S = l.spatial, C = l.channels;
    const T count = T(l.batch * S);
    for (std::int64_t c = 0; c < C; ++c) {
        if (training) {
            if (l.batch * S == 0) { // the mean of nothing, as ReduceMean gives it
                mean[c] = var[c] = std::numeric_limits<T>::quiet_NaN();
                continue;
            }
            T sum = 0;
            for (std::int64_t n = 0; n < l.batch; ++n)
                sum += Arr<T>(x + (n * C + c) * S, S).sum();
            const T m = sum / count;
            T sq = 0;
            for (std::int64_t n = 0; n < l.batch; ++n)
                sq += (Arr<T>(x + (n * C + c) * S, S) - m).square().sum();
            mean[c] = m;
            var[c] = sq / count;
        }
        const T rstd = T(1) / std::sqrt(var[c] + T(eps));
        const T k = rstd * scale[c], shift = bias[c] - mean[c] * k;
        for (std::int64_t n = 0; n < l.batch; ++n)
            ArrOut<T>(y + (n * C + c) * S, S) = Arr<T>(x + (n * C + c) * S, S) * k + shift;
    }
}

template <class T>
void batchNormBackward(const T* dy, const T* x, const T* scale, const T* mean, const T* var, const T* dmean,
                       const T* dvar, T* dx, T* dscale, T* dbias, const BatchLayout& l, double eps, bool training)
{
    const std::int64_t S = l.spatial, C = l.channels;
    const T count = T(l.batch * S);
    for (std::int64_t c = 0; c < C; ++c) {
        const T m = mean[c], rstd = T(1) / std::sqrt(var[c] + T(eps));
        T A = 0, B = 0; // sum(dy), sum(dy * (x - m))
        for (std::int64_t n = 0; n < l.batch; ++n) {
            const Arr<T> g(dy + (n * C + c) * S, S);
            A += g.sum();
            B += (g * (Arr<T>(x + (n * C + c) * S, S) - m)).sum();
        }
        dscale[c] = rstd * B;
        dbias[c] = A;
        // dx = k1 dy + k2 (x - m) + k0.
        const T k1 = scale[c] * rstd;
        T k2 = 0, k0 = 0;
        if (training && count > 0) {
            k2 = -k1 * rstd * rstd * B / count + (dvar ? T(2) * dvar[c] / count : T(0));
            k0 = -k1 * A / count + (dmean ? dmean[c] / count : T(0));
        }
        for (std::int64_t n = 0; n < l.batch; ++n)
            ArrOut<T>(dx + (n * C + c) * S, S) =
                Arr<T>(dy + (n * C + c) * S, S) * k1 + (Arr<T>(x + (n * C + c) * S, S) - m) * k2 + k0;
    }
}

template void batchNormForward(const float*, const float*, const float*, float*, float*, float*, const BatchLayout&,
                               double, bool);
template void batchNormForward(const double*, const double*, const double*, double*, double*, double*,
                               const BatchLayout&, double, bool);
template void batchNormBackward(const float*, const float*, const float*, const float*, const float*, const float*,
                                const float*, float*, float*, float*, const BatchLayout&, double, bool);
template void batchNormBackward(const double*, const double*, const double*, const double*, const double*,
                                const double*, const double*, double*, double*, double*, const BatchLayout&, double,
                                bool);

} // namespace gradstep

// The gradient of the norm-gradient ops (LayerNormGrad, GroupNormGrad, BatchNormGrad), written
// with ops so graph mode traces it: the second derivative of the norm layers. With every input
// independent (x, dy, variance, mean, gamma and the statistics' cotangents dmean, dvariance), per
// row of L elements, c = x - mean, r = rsqrt(variance + eps), and the cotangents A (of dx), Bg
// (of dgamma), Bb (of dbeta) spread over the row as gamma is:
//   dx = r g dy - r/L S1 - r^3/L c S2 + dmean/L + 2 dvariance/L c,   S1 = sum(g dy), S2 = sum(g dy c)
//   W = r A - r/L sum(A) - r^3/L sum(A c) c
//   d/ddy = g W + r Bg c + Bb;   d/dgamma = sum over the rows of dy W
//   d/dx = -r^3/L (A S2 + sum(A c) g dy) + 2 dvariance/L A + r Bg dy;   d/dmean = -sum_row(d/dx)
//   d/dvariance = -r^3/2 (sum(A g dy) - sum(A) S1/L - 3 r^2 sum(A c) S2/L + sum(Bg dy c))
//   d/ddmean = sum(A)/L;   d/ddvariance = 2 sum(A c)/L
// Outside training (BatchNorm with given statistics) the 1/L terms vanish and the statistics are
// constants. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <functional>

namespace gradstep {

/// How a norm's rows sit in x, as ops: views of x-shaped tensors in which rowSum reduces a row.
struct NormRows {
    std::function<Tensor(const Tensor&)> toView;    ///< x-shaped -> the row view
    std::function<Tensor(const Tensor&)> fromView;  ///< the row view -> x-shaped
    std::function<Tensor(const Tensor&)> rowSum;    ///< view -> summed per row, broadcastable to the view
    std::function<Tensor(const Tensor&)> stats;     ///< a statistics input -> broadcastable to the view
    std::function<Tensor(const Tensor&)> statsBack; ///< rowSum's shape -> the statistics input's shape
    std::function<Tensor(const Tensor&)> gammaFull; ///< gamma -> broadcastable to the view
    std::function<Tensor(const Tensor&)> gammaBack; ///< view-shaped -> gamma's shape, summed
    double length = 1;       ///< elements per row
    bool batchStats = true;  ///< false: the statistics are constants (BatchNorm outside training)
};

struct NormGradInputs {
    Tensor x, dy, variance, mean, gamma, dmean, dvariance; ///< dmean / dvariance may be undefined
};

/// Whether a cotangent of a norm's statistics must enter its gradient kernel: defined and, when
/// it has values and no higher derivative is being recorded, not all zero (the engine gives unused
/// outputs zeros, and the node then shows MindSpore's five inputs).
bool contributes(const Tensor& cotangent);

/// {d/dx, d/ddy, d/dvariance, d/dmean, d/dgamma, d/ddmean, d/ddvariance} of
/// <A, dx> + <Bg, dgamma> + <Bb, dbeta>; the last two undefined when dmean / dvariance are, and the
/// statistics' undefined when !rows.batchStats.
TensorList normGradVjp(const NormRows& rows, const NormGradInputs& in, const Tensor& a, const Tensor& bg,
                       const Tensor& bb, double eps);

} // namespace gradstep

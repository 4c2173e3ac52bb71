// The row-normalisation kernel shared by LayerNorm and GroupNorm (InstanceNorm is GroupNorm with
// one channel per group): forward and backward each one pass per row over data that stays in cache,
// where the composed layers ran about ten full-size ops forward and twenty backward.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/shape.h"

#include <cstdint>

namespace gradstep {

/// x seen as `rows` rows of `length` elements, each normalised by its own mean and (biased)
/// variance. A row is length / block blocks of `block` elements that share one affine index
/// (gamma, beta): the index of block k of row r is (r * length / block + k) % params. LayerNorm:
/// block 1 and params the size of gamma (which may cover fewer or more axes than a row); GroupNorm:
/// block the spatial size and params the channels, so one index per channel.
struct NormLayout {
    std::int64_t rows = 0, length = 0, block = 1, params = 1;
};

/// LayerNorm's layout: rows the axes before begin_norm_axis, block 1, `params` gamma's size.
NormLayout layerNormLayout(const Shape& x, std::int64_t beginNormAxis, std::int64_t params);
/// GroupNorm's layout of x (N, C, ...): N * groups rows, block the spatial size, C params.
NormLayout groupNormLayout(const Shape& x, std::int64_t groups);

/// y = (x - mean) * rsqrt(var + eps) * gamma + beta; mean and var (one per row) are saved.
template <class T>
void normForward(const T* x, const T* gamma, const T* beta, T* y, T* mean, T* var, const NormLayout& layout,
                 double eps);

/// dx, dgamma and dbeta for cotangent dy, from the saved mean and var:
///   dx = rstd * (gy - mean_row(gy) - xhat * mean_row(gy * xhat)),  gy = dy * gamma, xhat = (x - mean) * rstd
/// plus, when dmean / dvar (one per row, the cotangents of the saved statistics) are given,
/// dmean / length + dvar * 2 (x - mean) / length. dgamma and dbeta are overwritten.
template <class T>
void normBackward(const T* x, const T* dy, const T* mean, const T* var, const T* gamma, const T* dmean,
                  const T* dvar, T* dx, T* dgamma, T* dbeta, const NormLayout& layout, double eps);

} // namespace gradstep

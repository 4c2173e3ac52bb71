// Elementwise ops with NumPy broadcasting, and comparisons. One file per op under elementwise/.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

namespace gradstep {

Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
/// True division (RealDiv), float only: two integer inputs throw DTypeError instead of truncating.
Tensor div(const Tensor& a, const Tensor& b);
Tensor neg(const Tensor& x);
Tensor pow(const Tensor& base, const Tensor& exponent);
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor rsqrt(const Tensor& x);
Tensor sin(const Tensor& x);
Tensor cos(const Tensor& x);
/// The Gauss error function (used by the exact form of gelu, whose gradient needs it).
Tensor erf(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor square(const Tensor& x);
Tensor sign(const Tensor& x);
/// Rounds halves to even; zero gradient.
Tensor round(const Tensor& x);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);
Tensor relu(const Tensor& x);
/// ReLU's backward: dy where x > 0, else 0 (float dy and x of one shape).
Tensor reluGrad(const Tensor& dy, const Tensor& x);
Tensor leakyRelu(const Tensor& x, double alpha = 0.2);
Tensor sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor softplus(const Tensor& x);
/// approximate=true: tanh form (MindSpore's default); false: erf form.
Tensor gelu(const Tensor& x, bool approximate = true);
Tensor clipByValue(const Tensor& x, const Tensor& clipMin, const Tensor& clipMax);
/// ops.select / where: condition (bool) chooses x where true, y where false; broadcasts.
Tensor select(const Tensor& condition, const Tensor& x, const Tensor& y);
Tensor cast(const Tensor& x, DType dtype);
/// Complex parts: Re z and Im z (Float32 for Complex64), conj z; real tensors are their own real
/// part and conjugate, with imaginary part 0.
Tensor real(const Tensor& x);
Tensor imag(const Tensor& x);
Tensor conj(const Tensor& x);
/// re + i im from two Float32 (Complex64) or two Float64 (Complex128) tensors.
Tensor complex(const Tensor& re, const Tensor& im);
/// conj(x) for a complex x, x itself otherwise (no op recorded): backward rules apply it to the
/// derivative factors so that real tensors take the same path as before.
Tensor conjOf(const Tensor& x);
/// An op rule's gradient for an integer input, in that input's dtype: rules written with float
/// constants (Square's 2 * x) give float gradients for integer inputs, which MindSpore returns in
/// the input's dtype (as Cast's rule does). Anything else unchanged. Both backward engines use it.
Tensor inInputDType(const Tensor& grad, DType input);

// Comparisons return Bool tensors and are not differentiable.
Tensor equal(const Tensor& a, const Tensor& b);
Tensor notEqual(const Tensor& a, const Tensor& b);
Tensor greater(const Tensor& a, const Tensor& b);
Tensor greaterEqual(const Tensor& a, const Tensor& b);
Tensor less(const Tensor& a, const Tensor& b);
Tensor lessEqual(const Tensor& a, const Tensor& b);

/// Sums a broadcast gradient back to `shape` (differentiable; used by backward rules).
Tensor sumToShape(const Tensor& grad, const Shape& shape);
/// A 0-D tensor holding value, in the dtype of `like` (for scalar operands), Float32 for integer `like`.
Tensor scalarLike(double value, const Tensor& like);

// Python-like operators, so C++ tests read like the MindSpore snippets they check.
inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator-(const Tensor& x) { return neg(x); }
inline Tensor operator+(const Tensor& a, double b) { return add(a, scalarLike(b, a)); }
inline Tensor operator-(const Tensor& a, double b) { return sub(a, scalarLike(b, a)); }
inline Tensor operator*(const Tensor& a, double b) { return mul(a, scalarLike(b, a)); }
inline Tensor operator/(const Tensor& a, double b) { return div(a, scalarLike(b, a)); }
inline Tensor operator+(double a, const Tensor& b) { return add(scalarLike(a, b), b); }
inline Tensor operator-(double a, const Tensor& b) { return sub(scalarLike(a, b), b); }
inline Tensor operator*(double a, const Tensor& b) { return mul(scalarLike(a, b), b); }
inline Tensor operator/(double a, const Tensor& b) { return div(scalarLike(a, b), b); }

} // namespace gradstep

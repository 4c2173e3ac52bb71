// Shared machinery of the elementwise ops: shape rules and broadcasting loops. Kernels are
// templates over the element type and a functor, so the inner loops have no indirect calls.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/dispatch.h"
#include "tensor/dtype_storage.h"

#include <array>
#include <cstdint>
#include <functional>
#include <type_traits>

namespace gradstep {

/// Shape rule of a binary op: broadcast shape, promoted dtype; `floatOnly` rejects integer/bool
/// (complex passes: only ops with complex kernels get this far with complex inputs).
void inferBinary(const OpCall& call, SpecList& out, bool floatOnly);
/// Shape rule of a comparison: broadcast shape, Bool.
void inferCompare(const OpCall& call, SpecList& out);
/// Shape rule of a unary op: same shape and dtype; `floatOnly` rejects integer/bool.
void inferUnary(const OpCall& call, SpecList& out, bool floatOnly);
/// Shape rule of select and clip_by_value: the broadcast shape of three inputs and the promoted
/// dtype of inputs `firstValue`.. (select's Bool condition takes no part in the promotion).
void inferTernary(const OpCall& call, SpecList& out, std::size_t firstValue);
/// Throws DTypeError for a Bool result dtype (arithmetic ops other than add and mul).
void requireNumber(const OpCall& call, DType dtype);

// Signed integer overflow is undefined behaviour in C++; integer kernels wrap around (two's
// complement, as MindSpore's CPU kernels do) by computing in the unsigned type.
template <class T> constexpr bool kWraps = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// op(a, b) computed in the unsigned type for integers, so overflow wraps instead of being UB.
template <class T, class Op> T wrapApply(T a, T b, Op op)
{
    if constexpr (kWraps<T>) {
        // At least `unsigned`: 8- and 16-bit unsigned operands would otherwise promote to int,
        // whose product can overflow (65535 * 65535).
        using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(op(static_cast<U>(a), static_cast<U>(b))));
    } else
        return static_cast<T>(op(a, b));
}

template <class T> T wrapAdd(T a, T b) { return wrapApply(a, b, std::plus<>{}); }
template <class T> T wrapSub(T a, T b) { return wrapApply(a, b, std::minus<>{}); }
template <class T> T wrapMul(T a, T b) { return wrapApply(a, b, std::multiplies<>{}); }
template <class T> T wrapNeg(T a) { return wrapSub(T(0), a); }

/// max(a, b) (Max = true) or min(a, b) that returns a NaN operand when there is one
/// (MindSpore's and NumPy's maximum and minimum).
template <bool Max, class T> T nanExtremum(T a, T b)
{
    if constexpr (std::is_floating_point_v<T>)
        if (a != a)
            return a;
    return (Max ? a > b : a < b) ? a : b;
}

template <class T> T nanMax(T a, T b) { return nanExtremum<true>(a, b); }
template <class T> T nanMin(T a, T b) { return nanExtremum<false>(a, b); }

/// Per-axis element strides of `shape` viewed in an output of rank `rank` (0 on broadcast axes).
std::array<std::int64_t, Shape::kMaxRank> broadcastStrides(const Shape& shape, const Shape& outShape);

/// out[i] = f(a[ia], b[ib]) over the broadcast index space of out. In and Out element types may differ.
template <class In, class Out, class F>
void broadcastBinary(const Tensor& a, const Tensor& b, Tensor& out, F f)
{
    const In* pa = static_cast<const In*>(a.rawData());
    const In* pb = static_cast<const In*>(b.rawData());
    Out* po = static_cast<Out*>(out.rawData());
    const std::int64_t n = out.numel();
    if (n == 0)
        return;
    if (a.numel() == n && b.numel() == n) {
        for (std::int64_t i = 0; i < n; ++i)
            po[i] = f(pa[i], pb[i]);
        return;
    }
    if (b.numel() == 1 && a.numel() == n) {
        const In vb = pb[0];
        for (std::int64_t i = 0; i < n; ++i)
            po[i] = f(pa[i], vb);
        return;
    }
    if (a.numel() == 1 && b.numel() == n) {
        const In va = pa[0];
        for (std::int64_t i = 0; i < n; ++i)
            po[i] = f(va, pb[i]);
        return;
    }
    const Shape& os = out.shape();
    const int rank = os.rank();
    const auto sa = broadcastStrides(a.shape(), os);
    const auto sb = broadcastStrides(b.shape(), os);
    const std::int64_t inner = os[rank - 1];
    const std::int64_t ia = sa[static_cast<std::size_t>(rank - 1)];
    const std::int64_t ib = sb[static_cast<std::size_t>(rank - 1)];
    std::array<std::int64_t, Shape::kMaxRank> counter{};
    std::int64_t offA = 0, offB = 0;
    for (std::int64_t done = 0; done < n; done += inner) {
        for (std::int64_t j = 0; j < inner; ++j)
            po[done + j] = f(pa[offA + j * ia], pb[offB + j * ib]);
        for (int axis = rank - 2; axis >= 0; --axis) {
            const auto ax = static_cast<std::size_t>(axis);
            offA += sa[ax];
            offB += sb[ax];
            if (++counter[ax] < os[axis])
                break;
            offA -= sa[ax] * os[axis];
            offB -= sb[ax] * os[axis];
            counter[ax] = 0;
        }
    }
}

/// Runs a broadcasting binary kernel on inputs converted to the output dtype: float dtypes only
/// (FloatOnly) or every dtype, and complex ones too when WithComplex (f is then also
/// instantiated for std::complex; the check is once per call, not per element).
template <bool FloatOnly, bool WithComplex, class F>
void binaryForward(const OpCall& call, std::span<Tensor> outputs, F f)
{
    Tensor& out = outputs[0];
    const Tensor a = convertDType(call.input(0), out.dtype());
    const Tensor b = convertDType(call.input(1), out.dtype());
    const auto run = [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        broadcastBinary<T, T>(a, b, out, [&](T x, T y) { return static_cast<T>(f(x, y)); });
    };
    if constexpr (WithComplex)
        if (isComplex(out.dtype())) {
            visitComplex(out.dtype(), run);
            return;
        }
    if constexpr (FloatOnly)
        visitFloat(out.dtype(), run);
    else
        visitDType(out.dtype(), run);
}

template <class F> void floatBinaryForward(const OpCall& call, std::span<Tensor> outputs, F f)
{
    binaryForward<true, false>(call, outputs, f);
}

/// For ops defined on every dtype (maximum, ...).
template <class F> void anyBinaryForward(const OpCall& call, std::span<Tensor> outputs, F f)
{
    binaryForward<false, false>(call, outputs, f);
}

/// For ops defined on float and complex dtypes (real_div).
template <class F> void floatOrComplexBinaryForward(const OpCall& call, std::span<Tensor> outputs, F f)
{
    binaryForward<true, true>(call, outputs, f);
}

/// For ops defined on every dtype, complex included (add, sub, mul).
template <class F> void anyOrComplexBinaryForward(const OpCall& call, std::span<Tensor> outputs, F f)
{
    binaryForward<false, true>(call, outputs, f);
}

/// Comparison kernel: both inputs converted to their promoted dtype, Bool output. Complex
/// operands only for WithComplex comparisons (equality; complex numbers have no order).
template <bool WithComplex = false, class F> void compareForward(const OpCall& call, std::span<Tensor> outputs, F f)
{
    const DType common = promote(call.input(0).dtype(), call.input(1).dtype());
    const Tensor a = convertDType(call.input(0), common);
    const Tensor b = convertDType(call.input(1), common);
    const auto run = [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        broadcastBinary<T, bool>(a, b, outputs[0],
                                 [&](T x, T y) { return static_cast<bool>(f(x, y)); });
    };
    if constexpr (WithComplex)
        if (isComplex(common)) {
            visitComplex(common, run);
            return;
        }
    visitDType(common, run);
}

/// out[i] = f(a[ia], b[ib], c[ic]) over the broadcast index space of out.
template <class A, class B, class C, class Out, class F>
void broadcastTernary(const Tensor& a, const Tensor& b, const Tensor& c, Tensor& out, F f)
{
    const A* pa = static_cast<const A*>(a.rawData());
    const B* pb = static_cast<const B*>(b.rawData());
    const C* pc = static_cast<const C*>(c.rawData());
    Out* po = static_cast<Out*>(out.rawData());
    const std::int64_t n = out.numel();
    if (n == 0)
        return;
    if (a.numel() == n && b.numel() == n && c.numel() == n) {
        for (std::int64_t i = 0; i < n; ++i)
            po[i] = f(pa[i], pb[i], pc[i]);
        return;
    }
    // Not all of the same size, so out has rank >= 1.
    const Shape& os = out.shape();
    const int rank = os.rank();
    const std::array<std::array<std::int64_t, Shape::kMaxRank>, 3> strides{
        broadcastStrides(a.shape(), os), broadcastStrides(b.shape(), os),
        broadcastStrides(c.shape(), os)};
    const auto last = static_cast<std::size_t>(rank - 1);
    const std::int64_t inner = os[rank - 1];
    std::array<std::int64_t, Shape::kMaxRank> counter{};
    std::array<std::int64_t, 3> off{};
    for (std::int64_t done = 0; done < n; done += inner) {
        for (std::int64_t j = 0; j < inner; ++j)
            po[done + j] = f(pa[off[0] + j * strides[0][last]], pb[off[1] + j * strides[1][last]],
                             pc[off[2] + j * strides[2][last]]);
        for (int axis = rank - 2; axis >= 0; --axis) {
            const auto ax = static_cast<std::size_t>(axis);
            for (std::size_t k = 0; k < 3; ++k)
                off[k] += strides[k][ax];
            if (++counter[ax] < os[axis])
                break;
            for (std::size_t k = 0; k < 3; ++k)
                off[k] -= strides[k][ax] * os[axis];
            counter[ax] = 0;
        }
    }
}

/// out[i] = f(x[i]) over x's elements, out of the same dtype.
template <class T, class F> void mapElements(const Tensor& x, Tensor& out, F f)
{
    const T* px = x.data<T>();
    T* po = out.data<T>();
    for (std::int64_t i = 0, n = x.numel(); i < n; ++i)
        po[i] = static_cast<T>(f(px[i]));
}

/// Runs f on a complex x (WithComplex) and returns true; false for real x, left to the caller.
template <bool WithComplex, class F> bool complexUnaryForward(const Tensor& x, Tensor& out, F f)
{
    if constexpr (WithComplex)
        if (isComplex(x.dtype())) {
            visitComplex(x.dtype(), [&](auto* tag) { mapElements<std::remove_pointer_t<decltype(tag)>>(x, out, f); });
            return true;
        }
    return false;
}

/// out[i] = f(x[i]) for number tensors (integers and floats; Bool was rejected by the shape rule;
/// complex too when WithComplex).
template <bool WithComplex = false, class F>
void numberUnaryForward(const OpCall& call, std::span<Tensor> outputs, F f)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    if (complexUnaryForward<WithComplex>(x, out, f))
        return;
    visitDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_same_v<T, bool>)
            throwInputDType(call, 0, kNumberDTypes);
        else {
            const T* px = x.data<T>();
            T* po = out.data<T>();
            for (std::int64_t i = 0, n = x.numel(); i < n; ++i)
                po[i] = static_cast<T>(f(px[i]));
        }
    });
}

/// y[i] = tanh(x[i]) for float32 with Eigen's vectorised rational approximation (tanh.cpp): within
/// 6 ulp of the exact value, NaN stays NaN, +-inf give +-1. glibc's tanhf (through expm1f) took
/// about 30 ns per element here, 25x this, and dominated GELU, LSTM, GRU and RNN.
void tanhFloat32(const float* x, float* y, std::int64_t n);

/// out[i] = f(x[i]) for float tensors (complex too when WithComplex).
template <bool WithComplex = false, class F>
void floatUnaryForward(const OpCall& call, std::span<Tensor> outputs, F f)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    if (complexUnaryForward<WithComplex>(x, out, f))
        return;
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* px = x.data<T>();
        T* po = out.data<T>();
        for (std::int64_t i = 0, n = x.numel(); i < n; ++i)
            po[i] = f(px[i]);
    });
}

} // namespace gradstep

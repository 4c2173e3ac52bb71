// Shared by Real, Imag and Conj: a kernel that maps each element of a complex tensor to one of
// its parts or its conjugate, and copies (or zeroes) real tensors as NumPy does.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/elementwise/kernels.h"

namespace gradstep {

/// Shape rule: x's shape; complex x gives its part dtype when `toPart`, real x keeps its dtype.
void inferComplexPart(const OpCall& call, SpecList& out, bool toPart);

/// The gradient of Re x (imaginary false) or Im x for x, given the part's gradient g:
/// complex(g, 0) or complex(0, g) for complex x; g or zeros for real x.
Tensor complexPartGrad(const Tensor& x, const Tensor& g, bool imaginary);

/// out[i] = f(x[i]) for complex x (f returns the part or the conjugate); real x is copied
/// (`realZero` false) or zeroed.
template <class F> void complexPartForward(const OpCall& call, std::span<Tensor> outputs, bool realZero, F f)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    if (!isComplex(x.dtype())) {
        if (realZero)
            out.copyFrom(Tensor::zeros(x.shape(), x.dtype()));
        else
            out.copyFrom(x);
        return;
    }
    visitComplex(x.dtype(), [&](auto* tag) {
        using C = std::remove_pointer_t<decltype(tag)>;
        using R = decltype(f(C()));
        const C* px = x.data<C>();
        R* po = out.data<R>();
        for (std::int64_t i = 0, n = x.numel(); i < n; ++i)
            po[i] = f(px[i]);
    });
}

} // namespace gradstep

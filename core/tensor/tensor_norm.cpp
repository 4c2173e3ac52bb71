// SPDX-License-Identifier: MIT
#include "tensor/tensor_norm.h"

#include "tensor/dtype_storage.h"

#include <cmath>
#include <complex>

namespace gradstep {

// A typed loop with four partial sums: Tensor::at per element, one chain of dependent adds, took a third of a LeNet5
/// training step's time under `gradstep run`.
void sumSquaresAndSum(const Tensor& original, double& squares, double& sum)
{
    if (isComplex(original.dtype())) {
        // |z|^2 for the norm; the sum is of the real parts (a complex sum is not one number).
        squares = 0.0;
        sum = 0.0;
        visitComplex(original.dtype(), [&](auto* tag) {
            using C = std::remove_pointer_t<decltype(tag)>;
            const C* data = original.data<C>();
            for (std::int64_t i = 0, n = original.numel(); i < n; ++i) {
                squares += std::norm(std::complex<double>(data[i]));
                sum += static_cast<double>(data[i].real());
            }
        });
        return;
    }
    // Storage dtypes (Float16, UInt8, ...) are summed through Float64, which holds all of them.
    const Tensor t = isComputeDType(original.dtype()) ? original : convertDType(original, DType::Float64);
    constexpr std::int64_t kLanes = 4;
    double sq[kLanes] = {}, s[kLanes] = {};
    visitDType(t.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* data = t.data<T>();
        const std::int64_t n = t.numel();
        std::int64_t i = 0;
        for (; i + kLanes <= n; i += kLanes)
            for (std::int64_t k = 0; k < kLanes; ++k) {
                const double v = static_cast<double>(data[i + k]);
                sq[k] += v * v;
                s[k] += v;
            }
        for (; i < n; ++i) {
            const double v = static_cast<double>(data[i]);
            sq[0] += v * v;
            s[0] += v;
        }
    });
    squares = (sq[0] + sq[1]) + (sq[2] + sq[3]);
    sum = (s[0] + s[1]) + (s[2] + s[3]);
}

double l2Norm(const Tensor& t)
{
    if (!t.defined()) // a gradient that was never computed
        return 0.0;
    double squares = 0.0;
    double sum = 0.0;
    sumSquaresAndSum(t, squares, sum);
    return std::sqrt(squares);
}

} // namespace gradstep

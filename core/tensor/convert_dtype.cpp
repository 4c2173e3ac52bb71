// Element-wise dtype conversion of a whole tensor, as MindSpore's CPU Cast converts (see
// convertElement). SPDX-License-Identifier: MIT
#include "tensor/dtype_storage.h"
#include "tensor/half_convert.h"
#include "tensor/tensor.h"

namespace gradstep {

Tensor convertDType(const Tensor& x, DType dtype)
{
    if (x.dtype() == dtype)
        return x;
    Tensor out = Tensor::empty(x.shape(), dtype);
    // The two conversions every float16 op makes go through the vectorised path.
    if (x.dtype() == DType::Float16 && dtype == DType::Float32) {
        halfToFloat(x.data<Eigen::half>(), out.data<float>(), x.numel());
        return out;
    }
    if (x.dtype() == DType::Float32 && dtype == DType::Float16) {
        floatToHalf(x.data<float>(), out.data<Eigen::half>(), x.numel());
        return out;
    }
    visitStorageDType(x.dtype(), [&](auto* inTag) {
        using In = std::remove_pointer_t<decltype(inTag)>;
        visitStorageDType(dtype, [&](auto* outTag) {
            using Out = std::remove_pointer_t<decltype(outTag)>;
            const In* pi = x.data<In>();
            Out* po = out.data<Out>();
            for (std::int64_t i = 0, n = x.numel(); i < n; ++i)
                po[i] = convertElement<Out>(pi[i]);
        });
    });
    return out;
}

} // namespace gradstep

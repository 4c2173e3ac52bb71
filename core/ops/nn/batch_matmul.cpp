// batch_matmul (BatchMatMul): C[..., :, :] = op(A[..., :, :]) op(B[..., :, :]) for inputs of rank >= 2
// whose batch dimensions (all but the last two) broadcast as in NumPy; op transposes the last two
// axes when transpose_a / transpose_b is set. The gradients are MatMul's (see matmul.cpp), each
// summed back over the batch dimensions its input was broadcast along. One GEMM per batch entry;
// when B has no batch and A is not transposed, the whole batch is one GEMM with M * batch rows.
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn_ops.h"
#include "tensor/dtype_storage.h"
#include "tensor/gemm.h"

#include <array>

namespace gradstep {

namespace {
void inferBatchMatMul(const OpCall& call, SpecList& out) { inferMatmul(call, out, true); }

// Matrix-sized strides of each batch axis of `in` seen in the output batch shape (0 where broadcast).
std::array<std::int64_t, Shape::kMaxRank> batchStrides(const Shape& in, const Shape& out)
{
    std::array<std::int64_t, Shape::kMaxRank> strides{};
    const int inBatch = in.rank() - 2, outBatch = out.rank() - 2;
    std::int64_t stride = 1;
    for (int axis = inBatch - 1; axis >= 0; --axis) {
        const int outAxis = axis + outBatch - inBatch;
        strides[static_cast<std::size_t>(outAxis)] = in[axis] == 1 ? 0 : stride;
        stride *= in[axis];
    }
    return strides;
}

template <class T>
void batchedGemm(const Tensor& a, const Tensor& b, Tensor& c, bool ta, bool tb)
{
    const Shape& as = a.shape();
    const Shape& bs = b.shape();
    const Shape& cs = c.shape();
    const int ra = as.rank(), rb = bs.rank(), rc = cs.rank();
    const std::int64_t m = cs[rc - 2], n = cs[rc - 1], k = ta ? as[ra - 2] : as[ra - 1];
    const std::int64_t lda = as[ra - 1], ldb = bs[rb - 1];
    const std::int64_t aSize = as[ra - 2] * as[ra - 1], bSize = bs[rb - 2] * bs[rb - 1];
    const std::int64_t batch = c.numel() / std::max<std::int64_t>(m * n, 1);
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* pc = c.data<T>();
    if (b.numel() == bSize && !ta && a.numel() == batch * aSize) {
        gemm<T>(false, tb, batch * m, n, k, T(1), pa, lda, pb, ldb, T(0), pc, n);
        return;
    }
    const auto sa = batchStrides(as, cs);
    const auto sb = batchStrides(bs, cs);
    std::array<std::int64_t, Shape::kMaxRank> counter{};
    std::int64_t offA = 0, offB = 0;
    for (std::int64_t i = 0; i < batch; ++i) {
        gemm<T>(ta, tb, m, n, k, T(1), pa + offA * aSize, lda, pb + offB * bSize, ldb, T(0), pc + i * m * n, n);
        for (int axis = rc - 3; axis >= 0; --axis) {
            const auto ax = static_cast<std::size_t>(axis);
            offA += sa[ax];
            offB += sb[ax];
            if (++counter[ax] < cs[axis])
                break;
            offA -= sa[ax] * cs[axis];
            offB -= sb[ax] * cs[axis];
            counter[ax] = 0;
        }
    }
}

void forwardBatchMatMul(const OpCall& call, std::span<Tensor> outputs)
{
    const bool ta = call.attrs.getBool("transpose_a", false);
    const bool tb = call.attrs.getBool("transpose_b", false);
    visitMatmulDType(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        batchedGemm<T>(call.input(0), call.input(1), outputs[0], ta, tb);
    });
}

TensorList backwardBatchMatMul(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return matmulBackward(ctx, grads[0]);
}
} // namespace

const OpDef kBatchMatMul{"BatchMatMul", "batch_matmul", OpKind::NN, 2, 2, inferBatchMatMul, forwardBatchMatMul,
                         backwardBatchMatMul};

} // namespace gradstep

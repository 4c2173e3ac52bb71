// matmul (MatMul): C = op(A) op(B) for 2-D A and B, where op transposes when transpose_a /
// transpose_b is set (the GEMM reads the transposed operand in place; nothing is copied).
//   A, B plain:        dA = G B^T      dB = A^T G
//   transpose_a:       dA = B G^T      dB = A G
//   transpose_b:       dA = G B        dB = G^T A
//   both:              dA = B^T G^T    dB = G^T A^T
// each written as a matmul with transpose flags, so grad of grad is again a matmul. Inputs of
// rank > 2 go to BatchMatMul; a 1-D operand is treated as a row (A) or column (B) vector and the
// added axis is dropped from the result, as NumPy does. NaN/Inf propagate through the sums.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn_ops.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"
#include "tensor/gemm.h"

namespace gradstep {

void inferMatmul(const OpCall& call, SpecList& out, bool batched)
{
    const Shape& a = call.input(0).shape();
    const Shape& b = call.input(1).shape();
    if (batched ? (a.rank() < 2 || b.rank() < 2) : (a.rank() != 2 || b.rank() != 2))
        throwShapeError(call, std::string(batched ? "inputs must have rank >= 2" : "inputs must be 2-D")
                                  + ", got " + a.toString() + " and " + b.toString());
    requireMatmulDType(call, 0);
    requireMatmulDType(call, 1);
    requireSameDType(call, 0, 1);
    const bool ta = call.attrs.getBool("transpose_a", false);
    const bool tb = call.attrs.getBool("transpose_b", false);
    const int ra = a.rank(), rb = b.rank();
    const std::int64_t ka = ta ? a[ra - 2] : a[ra - 1];
    const std::int64_t kb = tb ? b[rb - 1] : b[rb - 2];
    if (ka != kb)
        throwShapeError(call, "contracting dimensions differ: a " + a.toString() + " gives " + std::to_string(ka)
                                  + ", b " + b.toString() + " gives " + std::to_string(kb));
    Shape shape = batched ? broadcastShapes(Shape(a.dims().first(static_cast<std::size_t>(ra - 2))),
                                            Shape(b.dims().first(static_cast<std::size_t>(rb - 2))), call.op.name)
                          : Shape{};
    shape.push_back(ta ? a[ra - 1] : a[ra - 2]);
    shape.push_back(tb ? b[rb - 2] : b[rb - 1]);
    out.push_back({shape, call.input(0).dtype()});
}

TensorList matmulBackward(const BackwardContext& ctx, const Tensor& g)
{
    // Complex operands enter conjugated (dA = G B^H, dB = A^H G); conjOf is a no-op for real ones.
    const Tensor a = conjOf(ctx.input(0));
    const Tensor b = conjOf(ctx.input(1));
    const bool ta = ctx.attrs().getBool("transpose_a", false);
    const bool tb = ctx.attrs().getBool("transpose_b", false);
    Tensor ga, gb;
    if (ctx.needsGrad(0)) {
        ga = ta ? (tb ? matmul(b, g, true, true) : matmul(b, g, false, true))
                : (tb ? matmul(g, b, false, false) : matmul(g, b, false, true));
        ga = sumToShape(ga, a.shape());
    }
    if (ctx.needsGrad(1)) {
        gb = tb ? (ta ? matmul(g, a, true, true) : matmul(g, a, true, false))
                : (ta ? matmul(a, g, false, false) : matmul(a, g, true, false));
        gb = sumToShape(gb, b.shape());
    }
    return {ga, gb};
}

namespace {
void inferMatMul(const OpCall& call, SpecList& out) { inferMatmul(call, out, false); }

void forwardMatMul(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& a = call.input(0);
    const Tensor& b = call.input(1);
    const bool ta = call.attrs.getBool("transpose_a", false);
    const bool tb = call.attrs.getBool("transpose_b", false);
    const std::int64_t m = outputs[0].shape()[0], n = outputs[0].shape()[1];
    const std::int64_t k = ta ? a.shape()[0] : a.shape()[1];
    visitMatmulDType(a.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        gemm<T>(ta, tb, m, n, k, T(1), a.data<T>(), a.shape()[1], b.data<T>(), b.shape()[1], T(0),
                outputs[0].data<T>(), n);
    });
}

TensorList backwardMatMul(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return matmulBackward(ctx, grads[0]);
}
} // namespace

const OpDef kMatMul{"MatMul", "matmul", OpKind::NN, 2, 2, inferMatMul, forwardMatMul, backwardMatMul};

Tensor matmul(const Tensor& a, const Tensor& b, bool transposeA, bool transposeB)
{
    if (a.defined() && b.defined() && (a.rank() == 1 || b.rank() == 1)) {
        // A vector has no transpose: it becomes a row (left) or column (right) matrix.
        const Tensor a2 = a.rank() == 1 ? reshape(a, {1, a.shape()[0]}) : a;
        const Tensor b2 = b.rank() == 1 ? reshape(b, {b.shape()[0], 1}) : b;
        const Tensor c = matmul(a2, b2, a.rank() == 1 ? false : transposeA, b.rank() == 1 ? false : transposeB);
        std::vector<std::int64_t> dims = c.shape().toVector();
        if (b.rank() == 1)
            dims.pop_back();
        if (a.rank() == 1)
            dims.erase(dims.end() - (b.rank() == 1 ? 1 : 2));
        return reshape(c, dims);
    }
    Attrs attrs;
    attrs.set("transpose_a", transposeA).set("transpose_b", transposeB);
    const bool batched = a.defined() && b.defined() && (a.rank() > 2 || b.rank() > 2);
    return callOp1(batched ? kBatchMatMul : kMatMul, {a, b}, attrs);
}

} // namespace gradstep

// The second derivative of the norm layers as ops (see norm_grad_vjp.h for the formulas).
// SPDX-License-Identifier: MIT
#include "ops/nn/norm_grad_vjp.h"

#include "autodiff/context.h"
#include "ops/dispatch.h"
#include "ops/nn/fused_defs.h"
#include "ops/elementwise.h"

namespace gradstep {

OutputList callNormGrad(const OpDef& op, std::initializer_list<Tensor> five, const Tensor& mean,
                        const Tensor& variance, const Tensor& dmean, const Tensor& dvariance, const Attrs& attrs)
{
    std::vector<Tensor> inputs(five);
    if (dmean.defined() || dvariance.defined()) {
        inputs.push_back(dmean.defined() ? dmean : Tensor::zeros(mean.shape(), mean.dtype()));
        inputs.push_back(dvariance.defined() ? dvariance : Tensor::zeros(variance.shape(), variance.dtype()));
    }
    return callOp(op, inputs, attrs);
}

bool contributes(const Tensor& cotangent)
{
    if (!cotangent.defined())
        return false;
    // Traced: no values to look at. Recorded: a zero cotangent may still depend on the inputs.
    if (executionContext().tracer || executionContext().recording())
        return true;
    const Tensor wide = cast(cotangent, DType::Float64);
    const double* p = wide.data<double>();
    for (std::int64_t i = 0; i < wide.numel(); ++i)
        if (p[i] != 0.0)
            return true;
    return false;
}

TensorList normGradVjp(const NormRows& rows, const NormGradInputs& in, const Tensor& a, const Tensor& bg,
                       const Tensor& bb, double eps)
{
    const Tensor x = rows.toView(in.x), dy = rows.toView(in.dy), A = rows.toView(a);
    const Tensor g = rows.gammaFull(in.gamma), Bg = rows.gammaFull(bg), Bb = rows.gammaFull(bb);
    const Tensor mean = rows.stats(in.mean);
    const Tensor r = rsqrt(add(rows.stats(in.variance), scalarLike(eps, mean)));
    const Tensor r3 = mul(mul(r, r), r);
    const Tensor c = sub(x, mean);
    const Tensor gdy = mul(g, dy);
    const Tensor S1 = rows.rowSum(gdy), S2 = rows.rowSum(mul(gdy, c));
    const Tensor TA = rows.rowSum(A), TC = rows.rowSum(mul(A, c));
    const double invL = rows.batchStats ? 1.0 / rows.length : 0.0;
    const Tensor k = scalarLike(invL, mean);
    const Tensor dv = in.dvariance.defined() ? rows.stats(in.dvariance) : Tensor();
    // W = r A - r/L TA - r^3/L TC c
    const Tensor W = sub(sub(mul(r, A), mul(mul(r, k), TA)), mul(mul(mul(r3, k), TC), c));
    const Tensor dDy = add(add(mul(g, W), mul(mul(r, Bg), c)), Bb);
    Tensor dX = add(mul(neg(mul(r3, k)), add(mul(A, S2), mul(TC, gdy))), mul(mul(r, Bg), dy));
    if (dv.defined())
        dX = add(dX, mul(mul(scalarLike(2.0 * invL, mean), dv), A));
    const Tensor dGamma = rows.gammaBack(mul(dy, W));
    TensorList result{rows.fromView(dX), rows.fromView(dDy), Tensor(), Tensor(), dGamma, Tensor(), Tensor()};
    if (!rows.batchStats)
        return result;
    const Tensor dMean = neg(rows.rowSum(dX));
    const Tensor three = scalarLike(3.0, mean);
    const Tensor inner = add(sub(sub(rows.rowSum(mul(A, gdy)), mul(mul(TA, S1), k)),
                                 mul(mul(mul(mul(three, mul(r, r)), TC), S2), k)),
                             rows.rowSum(mul(Bg, mul(dy, c))));
    const Tensor dVar = mul(mul(scalarLike(-0.5, mean), r3), inner);
    result[2] = rows.statsBack(dVar);
    result[3] = rows.statsBack(dMean);
    if (in.dmean.defined())
        result[5] = rows.statsBack(mul(TA, k));
    if (in.dvariance.defined())
        result[6] = rows.statsBack(mul(mul(scalarLike(2.0, mean), TC), k));
    return result;
}

} // namespace gradstep

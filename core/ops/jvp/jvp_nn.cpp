// Forward-mode rules of pooling, softmax, dropout, SiLU and the cross-entropy losses
// (Note [Forward-mode rules]; matmul and convolution are bilinear, jvp_linear.cpp).
//   max_pool:  dy = dx read at each window's first maximum (MaxPoolGradGrad, the adjoint of
//              MaxPool's backward, is exactly that gather);
//   softmax:   dy = y · (dx - sum(y · dx))  (its Jacobian diag(y) - y yᵀ is symmetric, so this is
//              also SoftmaxGrad(y, dx));
//   log_softmax: dy = dx - sum(softmax(x) · dx), softmax(x) = exp(y);
//   dropout:   dy = dx · mask / keep_prob (the mask, output 1, has no tangent);
//   silu:      dy = silu'(x) · dx, which SiLUGrad(x, dx) computes (diagonal Jacobian);
//   softmax_cross_entropy (per sample n): dloss_n = sum_j (softmax(x_n)_j · sum(t_n) - t_nj) · dx_nj;
//   sparse_softmax_cross_entropy:        dloss_n = sum_j (softmax(x_n) - onehot(t_n))_j · dx_nj.
//   Labels carry no tangent: the backward rules give them no gradient, as MindSpore's do.
// Their backward ops, so that the jvp of a gradient (a Hessian-vector product) runs by rules:
//   softmax_grad(y, g) = y · (g - s), s = sum(y · g):
//              d = softmax_grad(y, dg) + dy · (g - s) - y · sum(g · dy);
//   log_softmax_grad(y, g) = g - exp(y) · sum(g):  d = log_softmax_grad(y, dg) - exp(y) · dy · sum(g);
//   sparse_softmax_cross_entropy_grad(x, t, g) = (softmax(x) - onehot(t)) · g[:, None]:
//              d = softmax_grad(softmax(x), dx) · g[:, None] + sparse_softmax_cross_entropy_grad(x, t, dg).
// SPDX-License-Identifier: MIT
#include "ops/one_output.h"
#include "ops/jvp/jvp_rules.h"

#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/nn/pool_geometry.h"
#include "ops/nn_grad_ops.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

OutputList jvpMaxPool(const JvpCall& call)
{
    return oneOutput(maxPoolGradGradWithAttrs(call.input(0), call.tangent(0), call.attrs));
}

OutputList jvpSoftmax(const JvpCall& call)
{
    return oneOutput(softmaxGrad(call.output(0), call.tangent(0), call.attrs.getInt("axis", -1)));
}

OutputList jvpLogSoftmax(const JvpCall& call)
{
    const std::int64_t axis = call.attrs.getInt("axis", -1);
    const Tensor& dx = call.tangent(0);
    const Tensor expected = reduceSum(mul(exp(call.output(0)), dx), {axis}, true);
    return oneOutput(sub(dx, expected));
}

OutputList jvpDropout(const JvpCall& call)
{
    const Tensor& mask = call.output(1);
    const double p = call.attrs.getFloat("keep_prob");
    OutputList out = oneOutput(mul(call.tangent(0), mul(mask, scalarLike(1.0 / p, mask))));
    out.push_back(Tensor());
    return out;
}

namespace {
/// a + b where either may be undefined (an absent term).
Tensor sum(const Tensor& a, const Tensor& b)
{
    if (!a.defined())
        return b;
    return b.defined() ? add(a, b) : a;
}
} // namespace

OutputList jvpSoftmaxGrad(const JvpCall& call)
{
    const std::int64_t axis = call.attrs.getInt("axis", -1);
    const Tensor& y = call.input(0);
    const Tensor& g = call.input(1);
    Tensor t = call.has(1) ? softmaxGrad(y, call.tangent(1), axis) : Tensor();
    if (call.has(0)) {
        const Tensor& dy = call.tangent(0);
        const Tensor s = reduceSum(mul(y, g), {axis}, true);
        t = sum(t, sub(mul(dy, sub(g, s)), mul(y, reduceSum(mul(g, dy), {axis}, true))));
    }
    return oneOutput(t);
}

OutputList jvpLogSoftmaxGrad(const JvpCall& call)
{
    const std::int64_t axis = call.attrs.getInt("axis", -1);
    const Tensor& y = call.input(0);
    Tensor t = call.has(1) ? logSoftmaxGrad(y, call.tangent(1), axis) : Tensor();
    if (call.has(0))
        t = sum(t, neg(mul(mul(exp(y), call.tangent(0)), reduceSum(call.input(1), {axis}, true))));
    return oneOutput(t);
}

OutputList jvpSparseCrossEntropyGrad(const JvpCall& call)
{
    const Tensor& logits = call.input(0);
    const Tensor& g = call.input(2);
    Tensor t;
    if (call.has(0))
        t = mul(softmaxGrad(softmax(logits, -1), call.tangent(0), -1), reshape(g, {logits.shape()[0], 1}));
    if (call.has(2))
        t = sum(t, sparseSoftmaxCrossEntropyGrad(logits, call.input(1), call.tangent(2)));
    return oneOutput(t);
}

OutputList jvpSiLU(const JvpCall& call) { return oneOutput(siluGrad(call.input(0), call.tangent(0))); }

OutputList jvpCrossEntropy(const JvpCall& call)
{
    if (!call.has(0))
        return oneOutput(Tensor());
    const Tensor& logits = call.input(0);
    const Tensor& labels = call.input(1);
    const Tensor mass = reduceSum(labels, {1}, true);
    const Tensor slope = sub(mul(softmax(logits, -1), mass), labels);
    return oneOutput(reduceSum(mul(slope, call.tangent(0)), {1}, false));
}

OutputList jvpSparseCrossEntropy(const JvpCall& call)
{
    if (!call.has(0))
        return oneOutput(Tensor());
    const Tensor& logits = call.input(0);
    const Tensor ones = Tensor::full(call.output(0).shape(), 1.0, call.output(0).dtype());
    const Tensor slope = sparseSoftmaxCrossEntropyGrad(logits, call.input(1), ones);
    return oneOutput(reduceSum(mul(slope, call.tangent(0)), {1}, false));
}

} // namespace gradstep

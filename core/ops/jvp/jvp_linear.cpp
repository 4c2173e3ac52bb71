// Forward-mode rules of linear and bilinear ops and of reductions (Note [Forward-mode rules]).
//   linear op L (reshape, transpose, slicing, gather, concat, split, tile, reduce_sum/mean,
//   avg_pool, bias_add, cast, neg):  dy = L(dx), the op itself applied to the tangents (zeros for
//   inputs without one; indices and other non-differentiable inputs stay the primal ones). The
//   backward ops of ReLU and MaxPool are linear in their incoming gradient and piecewise constant
//   in the input that picks the mask or the maxima (which the registry marks non-differentiable),
//   so they are linear here too: the jvp of a gradient (a Hessian-vector product) runs them so;
//   bilinear op B (mul-like: matmul, batch matmul, conv2d and its two backprops):
//   dy = B(da, b) + B(a, db), with the op's own attributes (transposes, strides, padding);
//   reduce_max / reduce_min:  dy = sum(dx · [x == y]) / count([x == y]) over the reduced axes,
//   the mean tangent of the tied extrema, as the backward rule splits the gradient among them;
//   norm:  dy = sum(sign(x) |x|^(p-1) · dx) / y^(p-1) (p = 2: <x, dx> / y), 0 where y = 0.
// SPDX-License-Identifier: MIT
#include "ops/jvp/jvp_rules.h"

#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
bool differentiableInput(const OpDef& op, std::size_t i) { return (op.differentiableInputs >> (i < 63 ? i : 63)) & 1; }

/// The reduced axes of a reduction (all when its axis attribute is empty or absent).
std::vector<std::int64_t> reducedAxes(const JvpCall& call)
{
    return call.attrs.getInts("axis", {});
}

/// `t` of a reduction's output reshaped to keep_dims form, so it broadcasts against the input.
Tensor keptDims(const Tensor& t, const Tensor& x, const std::vector<std::int64_t>& axes)
{
    std::vector<std::int64_t> shape = x.shape().toVector();
    if (axes.empty())
        shape.assign(shape.size(), 1);
    for (std::int64_t a : axes)
        shape[static_cast<std::size_t>(normalizeAxis(a, x.rank(), "jvp"))] = 1;
    return reshape(t, shape);
}
} // namespace

OutputList jvpLinear(const JvpCall& call)
{
    TensorList tangentInputs;
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        tangentInputs.push_back(differentiableInput(call.op, i) ? call.tangentOrZeros(i) : call.input(i));
    return callOp(call.op, tangentInputs, call.attrs);
}

OutputList jvpBilinear(const JvpCall& call)
{
    OutputList sum;
    for (std::size_t i = 0; i < 2; ++i) {
        if (!call.has(i))
            continue;
        TensorList operands(call.inputs.begin(), call.inputs.end());
        operands[i] = call.tangent(i);
        const Tensor term = callOp1(call.op, operands, call.attrs);
        if (sum.empty())
            sum.push_back(term);
        else
            sum[0] = add(sum[0], term);
    }
    return sum;
}

OutputList jvpReduceExtremum(const JvpCall& call)
{
    const Tensor& x = call.input(0);
    const std::vector<std::int64_t> axes = reducedAxes(call);
    const bool keep = call.attrs.getBool("keep_dims", false);
    const Tensor at = cast(equal(x, keptDims(call.output(0), x, axes)), x.dtype());
    const Tensor count = reduceSum(at, axes, keep);
    OutputList out;
    out.push_back(div(reduceSum(mul(at, call.tangent(0)), axes, keep), count));
    return out;
}

OutputList jvpNorm(const JvpCall& call)
{
    const Tensor& x = call.input(0);
    const Tensor& y = call.output(0);
    const double p = call.attrs.getFloat("p", 2.0);
    const std::vector<std::int64_t> axes = reducedAxes(call);
    const bool keep = call.attrs.getBool("keep_dims", false);
    const Tensor weight = p == 2.0 ? x : mul(sign(x), pow(abs(x), scalarLike(p - 1.0, x)));
    Tensor numerator = reduceSum(mul(weight, call.tangent(0)), axes, keep);
    const Tensor denominator = p == 2.0 ? y : pow(y, scalarLike(p - 1.0, y));
    const Tensor zero = scalarLike(0.0, y);
    OutputList out;
    out.push_back(select(equal(y, zero), mul(numerator, zero), div(numerator, denominator)));
    return out;
}

} // namespace gradstep

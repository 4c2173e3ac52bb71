// Forward-mode rules of elementwise ops (Note [Forward-mode rules]). With y = f(x) elementwise
// the Jacobian is diagonal, so dy = f'(x) · dx element by element; binary ops add one term per
// input that has a tangent:
//   add  dy = da + db            sub  dy = da - db           mul  dy = da · b + a · db
//   div  dy = (da - y · db) / b  pow  dy = p · x^(p-1) · dx + y · ln(x) · dp
//   maximum / minimum: the tangent of the winner, the mean of both at a tie (the backward rule
//   splits half/half); clip_by_value: the tangent of whichever of x, lo, hi the value is;
//   select: dx where the condition holds, else dy.
// f'(x) is written as each op's backward rule writes it (from y where the rule uses y), so both
// modes agree at kinks and at infinities: ReLU' = 0 at 0, LeakyReLU' = alpha at 0, |x|' = 0 at 0.
// SPDX-License-Identifier: MIT
#include "ops/one_output.h"
#include "ops/jvp/jvp_rules.h"

#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/gelu_grad_ops.h"
#include "ops/shape_ops.h"

#include <string_view>

namespace gradstep {

namespace {

/// f'(x) · dx for a unary elementwise op.
Tensor unaryTangent(const JvpCall& call, const Tensor& dx)
{
    const std::string_view op = call.op.name;
    const Tensor& x = call.input(0);
    const Tensor& y = call.output(0);
    if (op == "Exp")
        return mul(dx, y);
    if (op == "Log")
        return div(dx, x);
    if (op == "Sqrt")
        return div(mul(dx, scalarLike(0.5, dx)), y);
    if (op == "Rsqrt")
        return mul(mul(dx, scalarLike(-0.5, y)), mul(square(y), y));
    if (op == "Sin")
        return mul(dx, cos(x));
    if (op == "Cos")
        return neg(mul(dx, sin(x)));
    if (op == "Tanh")
        return mul(dx, sub(scalarLike(1.0, y), square(y)));
    if (op == "Sigmoid")
        return mul(mul(dx, y), sub(scalarLike(1.0, y), y));
    if (op == "ReLU")
        return reluGrad(dx, x);
    if (op == "LeakyReLU")
        return select(greater(x, scalarLike(0.0, x)), dx, mul(dx, scalarLike(call.attrs.getFloat("alpha"), dx)));
    if (op == "Square")
        return mul(dx, mul(x, scalarLike(2.0, x)));
    if (op == "Abs")
        return mul(dx, sign(x));
    if (op == "Erf")
        return mul(mul(dx, scalarLike(1.1283791670955126, x)), exp(neg(square(x)))); // 2 / sqrt(pi)
    if (op == "Softplus")
        return mul(dx, sigmoid(x));
    if (op == "GeLU")
        return geluGrad(dx, x, call.attrs.getBool("approximate", true));
    throw AutodiffError("no forward-mode formula for elementwise op '" + std::string(op) + "'");
}

/// The outcome of a comparison as 0/1 in `like`'s dtype (for weights of tangents).
Tensor indicator(const Tensor& condition, const Tensor& like) { return cast(condition, like.dtype()); }
} // namespace

OutputList jvpUnaryElementwise(const JvpCall& call) { return oneOutput(unaryTangent(call, call.tangent(0))); }

// GeLUGrad(dy, x) = dy * gelu'(x): linear in dy, so d = GeLUGrad(d dy, x) + dy * gelu''(x) * dx.
OutputList jvpGeLUGrad(const JvpCall& call)
{
    const bool approximate = call.attrs.getBool("approximate", true);
    const Tensor& dy = call.input(0);
    const Tensor& x = call.input(1);
    Tensor out;
    if (call.has(0))
        out = geluGrad(call.tangent(0), x, approximate);
    if (call.has(1)) {
        const Tensor curved = mul(mul(dy, geluSecondDerivative(x, approximate)), call.tangent(1));
        out = out.defined() ? add(out, curved) : curved;
    }
    return oneOutput(out);
}

OutputList jvpAdd(const JvpCall& call)
{
    if (call.has(0) && call.has(1))
        return oneOutput(add(call.tangent(0), call.tangent(1)));
    return oneOutput(call.has(0) ? call.tangent(0) : call.tangent(1));
}

OutputList jvpSub(const JvpCall& call)
{
    if (call.has(0) && call.has(1))
        return oneOutput(sub(call.tangent(0), call.tangent(1)));
    return oneOutput(call.has(0) ? call.tangent(0) : neg(call.tangent(1)));
}

OutputList jvpMul(const JvpCall& call)
{
    Tensor t;
    if (call.has(0))
        t = mul(call.tangent(0), call.input(1));
    if (call.has(1)) {
        const Tensor term = mul(call.input(0), call.tangent(1));
        t = t.defined() ? add(t, term) : term;
    }
    return oneOutput(t);
}

OutputList jvpRealDiv(const JvpCall& call)
{
    const Tensor& b = call.input(1);
    Tensor numerator;
    if (call.has(0))
        numerator = call.tangent(0);
    if (call.has(1)) {
        const Tensor term = mul(call.output(0), call.tangent(1));
        numerator = numerator.defined() ? sub(numerator, term) : neg(term);
    }
    return oneOutput(div(numerator, b));
}

OutputList jvpPow(const JvpCall& call)
{
    const Tensor& base = call.input(0);
    const Tensor& exponent = call.input(1);
    const Tensor& y = call.output(0);
    Tensor t;
    if (call.has(0))
        t = mul(mul(call.tangent(0), exponent), pow(base, sub(exponent, scalarLike(1.0, exponent))));
    if (call.has(1)) {
        const Tensor floatBase = isFloating(base.dtype()) ? base : cast(base, y.dtype());
        const Tensor term = mul(mul(call.tangent(1), log(floatBase)), y);
        t = t.defined() ? add(t, term) : term;
    }
    return oneOutput(t);
}

OutputList jvpExtremum(const JvpCall& call)
{
    const bool max = call.op.name == "Maximum";
    const Tensor& a = call.input(0);
    const Tensor& b = call.input(1);
    const Tensor aWins = max ? greater(a, b) : less(a, b);
    const Tensor bWins = max ? greater(b, a) : less(b, a);
    const Tensor da = call.tangentOrZeros(0);
    const Tensor db = call.tangentOrZeros(1);
    const Tensor tie = mul(add(da, db), scalarLike(0.5, da));
    return oneOutput(select(aWins, da, select(bWins, db, mul(tie, indicator(equal(a, b), tie)))));
}

OutputList jvpClipByValue(const JvpCall& call)
{
    const DType dtype = call.output(0).dtype();
    const Tensor x = cast(call.input(0), dtype);
    const Tensor lo = cast(call.input(1), dtype);
    const Tensor hi = cast(call.input(2), dtype);
    const Tensor aboveHi = less(hi, maximum(x, lo));
    const Tensor belowLo = less(x, lo);
    return oneOutput(select(aboveHi, call.tangentOrZeros(2), select(belowLo, call.tangentOrZeros(1), call.tangentOrZeros(0))));
}

OutputList jvpSelect(const JvpCall& call)
{
    return oneOutput(select(call.input(0), call.tangentOrZeros(1), call.tangentOrZeros(2)));
}

} // namespace gradstep

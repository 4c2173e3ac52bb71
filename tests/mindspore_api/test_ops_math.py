"""Elementwise math, activations, comparisons, reductions and scans of mindspore.ops composed in
Python: values against NumPy / closed forms, gradients against central finite differences in
float64 (first and, for a few, second order)."""
import math

import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, raises

rng = np.random.default_rng(7)


def fd_grad(f, x, eps=1e-6):
    """Central differences of the scalar f at the float64 array x."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        a, b = x.copy(), x.copy()
        a[i] += eps
        b[i] -= eps
        g[i] = (float(f(Tensor(a)).asnumpy()) - float(f(Tensor(b)).asnumpy())) / (2 * eps)
    return g


def check_grad(f, x, rtol=1e-5, atol=1e-6):
    got = ms.grad(f)(Tensor(x)).asnumpy()
    want = fd_grad(f, x)
    assert np.allclose(got, want, rtol=rtol, atol=atol), (got, want)


x = rng.standard_normal((3, 4)) * 2
t = Tensor(x)
erf = np.vectorize(math.erf)

# ---- elementwise values
close(ops.floor(t), np.floor(x))
close(ops.ceil(t), np.ceil(x))
close(ops.trunc(t), np.trunc(x))
close(ops.floor(Tensor(np.array([-0.5, 0.5, 1.5, 2.5, -2.5, 3.0]))), [-1, 0, 1, 2, -3, 3])
close(ops.ceil(Tensor(np.array([-0.5, 0.5, 1.5, 2.5, -2.5, 3.0]))), [0, 1, 2, 3, -2, 3])
close(ops.floor_div(t, 0.7), np.floor_divide(x, 0.7))
close(ops.floor_mod(t, 0.7), np.mod(x, 0.7))
close(ops.fmod(t, 0.7), np.fmod(x, 0.7))
close(ops.floor_div(Tensor([7, -7]), Tensor([2, 2])), [3, -4])
assert ops.floor_div(Tensor([7, -7]), Tensor([2, 2])).dtype == ms.int64
close(ops.reciprocal(t), 1 / x)
close(ops.erfc(t), 1 - erf(x))
close(ops.expm1(t), np.expm1(x))
close(ops.log1p(ops.abs(t)), np.log1p(np.abs(x)))
close(ops.log2(ops.abs(t)), np.log2(np.abs(x)))
close(ops.log10(ops.abs(t)), np.log10(np.abs(x)))
close(ops.tan(t), np.tan(x), rtol=1e-6)
close(ops.sinh(t), np.sinh(x))
close(ops.cosh(t), np.cosh(x))
close(ops.xlogy(Tensor(np.array([0.0, 2.0])), Tensor(np.array([0.0, 3.0]))), [0.0, 2 * np.log(3)])

# ---- activations
sp = np.log1p(np.exp(x))
close(ops.softsign(t), x / (1 + np.abs(x)))
close(ops.elu(t), np.where(x > 0, x, np.expm1(x)))
close(ops.elu(t, 0.5), np.where(x > 0, x, 0.5 * np.expm1(x)))
sc, al = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
close(ops.selu(t), sc * np.where(x > 0, x, al * np.expm1(x)))
close(ops.celu(t, 2.0), np.maximum(x, 0) + np.minimum(0, 2.0 * np.expm1(x / 2.0)))
close(ops.silu(t), x / (1 + np.exp(-x)))
close(ops.mish(t), x * np.tanh(sp))
close(ops.hardswish(t), x * np.clip(x + 3, 0, 6) / 6)
close(ops.hardsigmoid(t), np.clip(x + 3, 0, 6) / 6)
close(ops.hardtanh(t, -0.5, 0.5), np.clip(x, -0.5, 0.5))
close(ops.relu6(t * 4), np.clip(x * 4, 0, 6))
close(ops.logsigmoid(t), -np.log1p(np.exp(-x)))
close(ops.logsigmoid(Tensor(np.array([-800.0, 800.0]))), [-800.0, 0.0])
close(ops.gelu(t, approximate="none"), 0.5 * x * (1 + erf(x / np.sqrt(2))))
close(ops.gelu(t, approximate="tanh"), 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))))
close(ops.fast_gelu(t), x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x))))
w = np.array([0.1, 0.2, 0.3])
x4 = rng.standard_normal((2, 3, 4))
close(ops.prelu(Tensor(x4), Tensor(w)), np.where(x4 > 0, x4, x4 * w.reshape(1, 3, 1)))
close(ops.leaky_relu(t, 0.1), np.where(x > 0, x, 0.1 * x))
raises(ValueError, ops.hardtanh, t, 1.0, -1.0, match="'max_val' must be greater than or equal to 'min_val'")
raises(TypeError, ops.elu, x, match="For 'Elu', the 'input_x' must be a Tensor")

# ---- comparisons and logic
odd = Tensor(np.array([1.0, np.nan, np.inf, -np.inf, 0.0]))
close(ops.isnan(odd), [False, True, False, False, False])
close(ops.isinf(odd), [False, False, True, True, False])
close(ops.isfinite(odd), [True, False, False, False, True])
close(ops.isclose(Tensor(np.array([1.0, 1.0001, np.nan])), Tensor(np.array([1.0, 1.0, np.nan]))), [True, False, False])
close(ops.isclose(Tensor(np.array([np.nan])), Tensor(np.array([np.nan])), equal_nan=True), [True])
close(ops.logical_xor(Tensor([True, False, True]), Tensor([True, True, False])), [False, True, True])

# ---- reductions
close(ops.prod(t), np.prod(x))
close(ops.prod(t, 1), np.prod(x, 1))
close(ops.prod(t, (0, 1), True), np.prod(x, (0, 1), keepdims=True))
v7 = rng.standard_normal(7)
close(ops.prod(Tensor(v7), 0), np.prod(v7))  # odd length: padded with ones
close(ops.std(t), np.std(x))
close(ops.std(t, 1, 1, True), np.std(x, 1, ddof=1, keepdims=True))
close(ops.var(t, (0,), True), np.var(x, 0, ddof=1))
close(ops.logsumexp(t, 1), np.log(np.exp(x).sum(1)))
close(ops.logsumexp(Tensor(np.array([1000.0, 1000.0])), 0), 1000 + np.log(2))
close(ops.all(t > -10), True)
close(ops.all(t > 0, 1), (x > 0).all(1))
close(ops.any(t > 0, 0, True), (x > 0).any(0, keepdims=True))
close(ops.cumsum(t, 1), np.cumsum(x, 1))
close(ops.cumsum(t, 0), np.cumsum(x, 0))
close(ops.cumsum(Tensor(np.arange(9)), 0), np.cumsum(np.arange(9)))
close(ops.cumprod(t, 1), np.cumprod(x, 1))
close(ops.cumprod(Tensor(np.array([2.0, 0.0, 3.0])), 0), [2.0, 0.0, 0.0])
raises(ValueError, ops.prod, t, 2, match="For 'ReduceProd', the 'axis' must be in range [-2, 2), but got 2.")
raises(TypeError, ops.cumprod, t, 1.0, match="'dim' must be an int")

# ---- gradients against finite differences (float64)
xs = rng.standard_normal((2, 3))
for f in [lambda a: ops.prod(a), lambda a: ops.prod(a, 1).sum(), lambda a: ops.std(a, 1).sum(),
          lambda a: ops.var(a), lambda a: ops.logsumexp(a, 1).sum(), lambda a: (ops.cumsum(a, 1) ** 2).sum(),
          lambda a: (ops.cumprod(a, 1) * Tensor(np.arange(6.0).reshape(2, 3))).sum(),
          lambda a: ops.elu(a).sum(), lambda a: ops.selu(a).sum(), lambda a: ops.celu(a, 1.5).sum(),
          lambda a: ops.silu(a).sum(), lambda a: ops.mish(a).sum(), lambda a: ops.hardswish(a * 3).sum(),
          lambda a: ops.logsigmoid(a).sum(), lambda a: ops.softsign(a).sum(), lambda a: ops.erfc(a).sum(),
          lambda a: ops.fast_gelu(a).sum(), lambda a: ops.sinh(a).sum() + ops.cosh(a).sum() + ops.tan(a).sum(),
          lambda a: ops.reciprocal(a).sum(), lambda a: ops.log1p(a * a).sum()]:
    check_grad(f, xs)
# second order: d2/dx2 of prod over a row is 0 on the diagonal; of logsumexp a softmax Jacobian
g2 = ms.grad(ms.grad(lambda a: ops.logsumexp(a, 0)))(Tensor(np.array([0.3, -0.2])))
p = np.exp([0.3, -0.2]) / np.exp([0.3, -0.2]).sum()
close(g2, p * (1 - p) - p * p[::-1], atol=1e-9)
g2 = ms.grad(ms.grad(lambda a: ops.prod(a)))(Tensor(np.array([2.0, 3.0, 5.0])))
close(g2, [5 + 3, 5 + 2, 3 + 2])  # column sums of the Hessian (x_k off the diagonal)
# floor / ceil pass no gradient
close(ms.grad(lambda a: ops.floor(a).sum())(Tensor(xs)), np.zeros_like(xs))
print("ok")
v = np.array([0.5, -1.0, 2.0])
close(ops.cumulative_logsumexp(Tensor(v), 0), np.logaddexp.accumulate(v))
close(ops.cumulative_logsumexp(Tensor(v), 0, reverse=True), np.logaddexp.accumulate(v[::-1])[::-1])
# the exclusive start is the dtype's lowest finite value (MindSpore's kernels write it, not -inf)
close(ops.cumulative_logsumexp(Tensor(v), 0, exclusive=True),
      np.concatenate([[np.finfo(np.float64).min], np.logaddexp.accumulate(v)[:-1]]))
print("cumulative ok")

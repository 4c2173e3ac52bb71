"""Elementwise and special functions of mindspore.ops: bitwise ops, copysign, hypot, fmax/fmin,
the gamma family, zeta, erfinv, Bessel i0/j0 (values against NumPy / math / closed forms,
gradients against finite differences) and the small helpers."""
import math

import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, fd_grad, raises

a = np.array([12, -7, 0, 5], np.int32)
b = np.array([10, 3, 4, 5], np.int32)
close(ops.bitwise_or(Tensor(a), Tensor(b)), a | b)
close(ops.bitwise_and(Tensor(a), Tensor(b)), a & b)
assert ops.bitwise_and(Tensor(a), Tensor(b)).dtype == ms.int32
close(ops.bitwise_and(Tensor(np.array([True, False])), Tensor(np.array([True, True]))), [True, False])
close(ops.bitwise_xor(Tensor(a), Tensor(b)), a ^ b)
close(ops.bitwise_not(Tensor(a)), ~a)
close(ops.invert(Tensor(a)), ~a)
close(ops.bitwise_left_shift(Tensor(a), Tensor(np.array([1, 2, 3, 0], np.int32))), a << [1, 2, 3, 0])
close(ops.bitwise_right_shift(Tensor(a), 1), a >> 1)
assert ops.bitwise_or(Tensor(a), Tensor(b)).dtype == ms.int32
close(ops.gcd(Tensor(a), Tensor(b)), np.gcd(a, b))
close(ops.lcm(Tensor(a), Tensor(b)), np.lcm(a, b))
close(ops.population_count(Tensor(np.array([0, 7, -1, 256], np.int16))), [0, 3, 16, 1])
raises(TypeError, ops.bitwise_or, Tensor(np.ones(2)), Tensor(np.ones(2)), match="For 'BitwiseOr'")

x = np.array([-2.5, 0.0, 1.5, 3.0])
y = np.array([1.0, -0.0, -2.0, np.nan])
close(ops.copysign(Tensor(x), Tensor(y)), np.copysign(x, y))
close(ops.hypot(Tensor(x), Tensor(np.array([4.0, 0.0, 2.0, 4.0]))), np.hypot(x, [4.0, 0.0, 2.0, 4.0]))
close(ops.hypot(Tensor(np.array([3e200])), Tensor(np.array([4e200]))), [5e200])
close(ops.fmax(Tensor(x), Tensor(y)), np.fmax(x, y))
close(ops.fmin(Tensor(np.array([np.nan, 1.0])), Tensor(np.array([2.0, np.nan]))), [2.0, 1.0])
close(ops.ldexp(Tensor(x), Tensor(np.array([1, 2, 3, -1]))), np.ldexp(x, [1, 2, 3, -1]))
close(ops.nextafter(Tensor(np.array([1.0])), Tensor(np.array([2.0]))), np.nextafter([1.0], [2.0]), rtol=0, atol=0)
close(ops.logaddexp2(Tensor(x), Tensor(x[::-1].copy())), np.logaddexp2(x, x[::-1]), rtol=1e-12)
m = np.array([[0.5, -1.0, 2.0], [3.0, 0.0, -4.0]])
close(ops.logcumsumexp(Tensor(m), 1), np.log(np.cumsum(np.exp(m), 1)), rtol=1e-12)
close(ops.sgn(Tensor(x)), np.sign(x))
z = np.array([3 + 4j, 0j, -1j], np.complex64)
close(ops.sgn(Tensor(z)), [0.6 + 0.8j, 0, -1j])
close(ops.angle(Tensor(z)), np.angle(z))
close(ops.polar(Tensor(np.array([2.0], np.float32)), Tensor(np.array([np.pi / 2], np.float32))), [2j], atol=1e-6)
close(ops.xdivy(Tensor(np.array([0.0, 3.0])), Tensor(np.array([0.0, 2.0]))), [0.0, 1.5])
close(ops.truncate_div(Tensor(np.array([-7, 7], np.int32)), Tensor(np.array([2, 2], np.int32))), [-3, 3])
close(ops.truncate_mod(Tensor(np.array([-7.0, 7.0])), Tensor(np.array([2.0, -2.0]))), np.fmod([-7.0, 7.0], [2.0, -2.0]))
close(ops.tanhshrink(Tensor(x)), x - np.tanh(x))
close(ops.soft_shrink(Tensor(x), 1.0), np.sign(x) * np.maximum(np.abs(x) - 1.0, 0))
close(ops.threshold(Tensor(x), 1.0, 20.0), np.where(x > 1.0, x, 20.0))
r = np.array([[3.0, 4.0], [0.3, 0.4]])
close(ops.renorm(Tensor(r), 2, 0, 1.0), [[0.6, 0.8], [0.3, 0.4]], rtol=1e-6)
close(ops.approximate_equal(Tensor(np.array([1.0, 2.0])), Tensor(np.array([1.0 + 1e-7, 2.1]))), [True, False])
assert ops.is_complex(Tensor(z)) and not ops.is_complex(Tensor(x))
close(ops.iscomplex(Tensor(z)), [True, False, True])
assert ops.numel(Tensor(np.ones((2, 3)))) == 6
assert ops.dtype(Tensor(np.ones(1, np.float32))) == ms.float32
close(ops.scalar_to_tensor(2, ms.float32), 2.0)
close(ops.tuple_to_array((1, 2)), [1, 2])

g = np.array([-2.5, -0.5, 0.1, 0.5, 1.0, 2.0, 4.7, 30.0])
assert ops.lgamma(Tensor(g.astype(np.float32))).dtype == ms.float32
close(ops.lgamma(Tensor(g)), [math.lgamma(v) for v in g], rtol=1e-12, atol=1e-13)
dg = np.array([-2.5, -0.5, 0.1, 0.5, 1.0, 2.0, 4.7, 30.0])
# digamma(1) = -euler_gamma, digamma(0.5) = -euler_gamma - 2 ln 2, digamma(x+1) = digamma(x) + 1/x
eg = 0.5772156649015329
close(ops.digamma(Tensor(np.array([1.0, 0.5]))), [-eg, -eg - 2 * math.log(2)], rtol=1e-12)
d = ops.digamma(Tensor(dg)).asnumpy()
close(ops.digamma(Tensor(dg + 1)), d + 1 / dg, rtol=1e-11)
close(ms.grad(lambda t: ops.lgamma(t).sum())(Tensor(dg)), d, rtol=1e-11)
# trigamma(1) = pi^2/6; psi''(1) = -2 zeta(3); polygamma(1, x) is the derivative of digamma
close(ops.polygamma(1, Tensor(np.array([1.0]))), [math.pi ** 2 / 6], rtol=1e-12)
close(ops.polygamma(2, Tensor(np.array([1.0]))), [-2 * 1.2020569031595942], rtol=1e-12)
close(ops.polygamma(1, Tensor(dg)), ms.grad(lambda t: ops.digamma(t).sum())(Tensor(dg)), rtol=1e-9)
close(ops.mvlgamma(Tensor(np.array([2.5, 3.0])), 3),
      [3 * 2 / 4 * math.log(math.pi) + sum(math.lgamma(v - i / 2) for i in range(3)) for v in (2.5, 3.0)], rtol=1e-12)
raises(ValueError, ops.mvlgamma, Tensor(np.array([0.9])), 3, match="For 'Mvlgamma'")
# P(1, x) = 1 - e^-x; P(a, x) + Q(a, x) = 1; P(0.5, x) = erf(sqrt x)
xs = np.array([0.1, 1.0, 3.0, 12.0])
close(ops.igamma(Tensor(np.ones(4)), Tensor(xs)), 1 - np.exp(-xs), rtol=1e-10)
close(ops.igamma(Tensor(np.full(4, 0.5)), Tensor(xs)), [math.erf(math.sqrt(v)) for v in xs], rtol=1e-10)
close(ops.igammac(Tensor(np.full(4, 3.0)), Tensor(xs)), np.exp(-xs) * (1 + xs + xs ** 2 / 2), rtol=1e-9)
close(ms.grad(lambda t: ops.igamma(Tensor(np.full(4, 3.0)), t).sum())(Tensor(xs)), xs ** 2 * np.exp(-xs) / 2, rtol=1e-9)
fa = lambda t: ops.igamma(t, Tensor(xs)).sum()
close(ms.grad(fa)(Tensor(np.full(4, 2.0))), fd_grad(fa, np.full(4, 2.0), eps=1e-5), rtol=1e-5)
close(ops.zeta(Tensor(np.array([2.0, 4.0, 3.0, 0.5])), Tensor(np.array([1.0, 1.0, 2.0, 1.0]))),
      [math.pi ** 2 / 6, math.pi ** 4 / 90, 1.2020569031595942 - 1, np.nan], rtol=1e-12)
e = np.array([-0.999, -0.5, 0.0, 0.3, 0.9, 0.99999])
close(ops.erf(ops.erfinv(Tensor(e))), e, rtol=1e-12, atol=1e-15)
close(ops.erfinv(Tensor(np.array([1.0, -1.0, 2.0]))), [np.inf, -np.inf, np.nan])
yv = ops.erfinv(Tensor(e[1:-1])).asnumpy()
close(ms.grad(lambda t: ops.erfinv(t).sum())(Tensor(e[1:-1])), math.sqrt(math.pi) / 2 * np.exp(yv ** 2), rtol=1e-9)
iv = np.array([-5.0, -1.0, 0.0, 0.5, 3.75, 4.0, 10.0])
close(ops.bessel_i0(Tensor(iv)), np.i0(iv), rtol=3e-7)
close(ops.i0(Tensor(iv)), np.i0(iv), rtol=3e-7)
# J0 at 0, at its first zero 2.404825557695773 and J0(1), J0(10) from tables
close(ops.bessel_j0(Tensor(np.array([0.0, 2.404825557695773, 1.0, 10.0, -1.0]))),
      [1.0, 0.0, 0.7651976865579666, -0.2459357644513483, 0.7651976865579666], atol=1e-7)
# negative arguments: the recurrence psi1(x) = psi1(x + 1) + 1/x^2, and far below 0 a NaN, not a hang
close(ops.polygamma(1, Tensor(np.array([-2.5]))), ops.polygamma(1, Tensor(np.array([-1.5]))).asnumpy() + 1 / 2.5 ** 2,
      rtol=1e-10)
close(ops.polygamma(1, Tensor(np.array([-1e9, 1.0]))), [np.nan, np.pi ** 2 / 6], rtol=1e-12)

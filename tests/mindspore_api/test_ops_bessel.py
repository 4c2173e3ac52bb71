"""The Bessel functions j1, y0, y1, i0e, i1, i1e, k0, k0e, k1 and k1e of mindspore.ops: values
against their integral representations (trapezoid rule in NumPy) and tabulated values, the
scalings and symmetries, the domain edges, and the gradients against the derivative identities
J0' = -J1, I0' = I1, K0' = -K1 and finite differences."""
import math

import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, fd_grad, raises

x = np.array([0.25, 0.5, 1.0, 2.0, 2.9, 3.1, 4.0, 7.5, 12.0])
t = np.linspace(0.0, math.pi, 20001)
u = np.linspace(0.0, 12.0, 120001)


def trapz(values, grid):
    return float(np.sum((values[1:] + values[:-1]) * np.diff(grid)) / 2)


j1 = [trapz(np.cos(t - v * np.sin(t)), t) / math.pi for v in x]
i1 = [trapz(np.exp(v * np.cos(t)) * np.cos(t), t) / math.pi for v in x]
k0 = [trapz(np.exp(-v * np.cosh(u)), u) for v in x]
k1 = [trapz(np.exp(-v * np.cosh(u)) * np.cosh(u), u) for v in x]

X = Tensor(x)
close(ops.bessel_j1(X), j1, rtol=0, atol=2e-7)
close(ops.bessel_i1(X), i1, rtol=2e-7, atol=1e-7)
close(ops.bessel_k0(X), k0, rtol=2e-7, atol=1e-9)
close(ops.bessel_k1(X), k1, rtol=2e-7, atol=1e-9)
close(ops.bessel_i1e(X), np.array(i1) * np.exp(-x), rtol=2e-7, atol=1e-8)
close(ops.bessel_k0e(X), np.array(k0) * np.exp(x), rtol=2e-7)
close(ops.bessel_k1e(X), np.array(k1) * np.exp(x), rtol=2e-7)
close(ops.bessel_i0e(X), ops.bessel_i0(X).asnumpy() * np.exp(-x), rtol=1e-7)

# tabulated Y0, Y1 (Abramowitz & Stegun table 9.1)
close(ops.bessel_y0(Tensor(np.array([1.0, 2.0, 5.0]))), [0.0882569642, 0.5103756726, -0.3085176252], atol=2e-7)
close(ops.bessel_y1(Tensor(np.array([1.0, 2.0, 5.0]))), [-0.7812128213, -0.1070324315, 0.1478631434], atol=2e-7)

# odd functions, and the domain of Y and K: -inf / +inf at 0, nan below
close(ops.bessel_j1(Tensor(-x)), -np.array(j1), rtol=0, atol=2e-7)
close(ops.bessel_i1(Tensor(-x)), -np.array(i1), rtol=2e-7, atol=1e-7)
edge = Tensor(np.array([0.0, -1.0]))
close(ops.bessel_y0(edge), [-np.inf, np.nan])
close(ops.bessel_y1(edge), [-np.inf, np.nan])
close(ops.bessel_k0(edge), [np.inf, np.nan])
close(ops.bessel_k1e(edge), [np.inf, np.nan])
# scaled forms stay finite where the unscaled overflow float32
big = Tensor(np.array([100.0, 120.0], np.float32))
assert np.isfinite(ops.bessel_i0e(big).asnumpy()).all() and np.isfinite(ops.bessel_i1e(big).asnumpy()).all()
close(ops.bessel_i1e(big), 1 / np.sqrt(2 * np.pi * np.array([100.0, 120.0])) * (1 - 3 / (8 * np.array([100.0, 120.0]))),
      rtol=2e-4)
assert ops.bessel_k0(Tensor(np.array([1.0], np.float32))).dtype == ms.float32
assert ops.bessel_y1(Tensor(np.array([1.0], np.float16))).dtype == ms.float16

# gradients: the derivative identities, and finite differences on both branches of each rule
g = lambda fn: ms.grad(lambda v: fn(v).sum())(X).asnumpy()
close(g(ops.bessel_j0), -ops.bessel_j1(X).asnumpy(), rtol=2e-5, atol=2e-6)
close(g(ops.bessel_i0), ops.bessel_i1(X).asnumpy(), rtol=2e-5, atol=2e-6)
close(g(ops.bessel_k0), -ops.bessel_k1(X).asnumpy(), rtol=2e-5, atol=2e-6)
pts = np.array([0.7, 2.5, 5.0])
for fn in (ops.bessel_y0, ops.bessel_y1, ops.bessel_k1e, ops.bessel_i1e):
    f = lambda v, fn=fn: fn(v).sum()
    close(ms.grad(f)(Tensor(pts)), fd_grad(f, pts), rtol=1e-4, atol=1e-6)

raises(TypeError, ops.bessel_k0, Tensor(np.array([1, 2], np.int32)), match="For 'BesselK0'")
raises(TypeError, ops.bessel_j1, [1.0], match="For 'BesselJ1'")

"""Inverse trigonometric / hyperbolic ops (series-based, differentiable), MindSpore 1.x functional
names, AddN, segment reductions, ApplyMomentum, DepthToSpace / SpaceToDepth, IndexAdd, Diag."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
import mindspore.ops.functional as F
from mindspore import Parameter, Tensor
from mindspore.ops import operations as P

from _check import close, raises

x = np.linspace(-30, 30, 121)
close(ops.atan(Tensor(x)), np.arctan(x), rtol=1e-14, atol=1e-14)
close(ops.arctan(Tensor(x)), np.arctan(x), rtol=1e-14, atol=1e-14)
u = np.linspace(-0.999, 0.999, 41)
close(ops.asin(Tensor(u)), np.arcsin(u), rtol=1e-13, atol=1e-13)
close(ops.acos(Tensor(u)), np.arccos(u), rtol=1e-13, atol=1e-13)
close(ops.asin(Tensor(np.array([1.0, -1.0, 1.5]))), [np.pi / 2, -np.pi / 2, np.nan])
yy, xx = np.meshgrid(np.array([-2.0, 0.0, 3.0]), np.array([-1.0, 0.0, 2.0]))
close(ops.atan2(Tensor(yy), Tensor(xx)), np.arctan2(yy, xx), rtol=1e-14, atol=1e-14)
close(ops.asinh(Tensor(x)), np.arcsinh(x), rtol=1e-13)
close(ops.acosh(Tensor(np.array([1.5, 10.0]))), np.arccosh([1.5, 10.0]))
close(ops.atanh(Tensor(u)), np.arctanh(u), rtol=1e-10)
close(ms.grad(lambda a: ops.atan(a).sum())(Tensor(x)), 1 / (1 + x * x), rtol=1e-12, atol=1e-15)
close(ms.grad(lambda a: ops.asin(a).sum())(Tensor(u[5:-5])), 1 / np.sqrt(1 - u[5:-5] ** 2), rtol=1e-10)
close(ms.grad(ms.grad(lambda a: ops.atan(a).sum()))(Tensor(x)), -2 * x / (1 + x * x) ** 2, rtol=1e-10, atol=1e-14)
gy, gx = ms.grad(lambda a, b: ops.atan2(a, b).sum(), grad_position=(0, 1))(Tensor(np.array([1.0, -2.0])),
                                                                            Tensor(np.array([-3.0, 0.5])))
r2 = np.array([1.0 + 9.0, 4.0 + 0.25])
close(gy, np.array([-3.0, 0.5]) / r2)
close(gx, -np.array([1.0, -2.0]) / r2)
close(P.Atan()(Tensor(np.array([1.0]))), [np.pi / 4])
close(P.Atan2()(Tensor(np.array([1.0])), Tensor(np.array([-1.0]))), [3 * np.pi / 4])

# MindSpore 1.x functional names
close(F.tensor_add(Tensor(1.0), Tensor(2.0)), 3.0)
close(F.tensor_pow(Tensor(2.0), 3), 8.0)
close(F.addn((Tensor([1.0]), Tensor([2.0]))), [3.0])
assert F.dtype(Tensor(np.ones(1, np.float32))) == ms.float32
close(F.scalar_to_tensor(3, ms.float32), 3.0)
close(F.tuple_to_array((1, 2, 3)), [1, 2, 3])
assert F.scalar_cast(3.7, ms.int32) == 3

close(P.AddN()((Tensor([1.0]), Tensor([2.0]), Tensor([3.0]))), [6.0])
raises(TypeError, P.AddN(), Tensor([1.0]), match="For 'AddN'")
data = Tensor(np.array([[1.0, 2.0], [3.0, 0.0], [5.0, 1.0]]))
close(P.UnsortedSegmentSum()(data, Tensor(np.array([0, 1, 0])), 2), [[6.0, 3.0], [3.0, 0.0]])
close(P.UnsortedSegmentMax()(data, Tensor(np.array([0, 1, 0])), 2), [[5.0, 2.0], [3.0, 0.0]])
close(P.UnsortedSegmentMin()(data, Tensor(np.array([0, 1, 0])), 2), [[1.0, 1.0], [3.0, 0.0]])
close(ms.grad(lambda d: P.UnsortedSegmentSum()(d, Tensor(np.array([0, 1, 0])), 2)[0].sum())(data),
      [[1, 1], [0, 0], [1, 1]])

v = Parameter(Tensor(np.array([1.0, 2.0])), name="v")
acc = Parameter(Tensor(np.zeros(2)), name="acc")
for _ in range(2):
    P.ApplyMomentum()(v, acc, 0.1, Tensor(np.array([1.0, 1.0])), 0.9)
close(acc, [1.9, 1.9])
close(v, [1.0 - 0.1 - 0.19, 2.0 - 0.1 - 0.19])
raises(TypeError, P.ApplyMomentum(), Tensor(np.zeros(2)), acc, 0.1, Tensor(np.zeros(2)), 0.9, match="Parameter")

# DepthToSpace / SpaceToDepth in TensorFlow's DCR order, inverse of each other
xs = np.arange(2 * 8 * 2 * 3, dtype=np.float64).reshape(2, 8, 2, 3)
d2s = P.DepthToSpace(2)(Tensor(xs)).asnumpy()
b, c = 2, 2
want = np.zeros((2, c, 4, 6))
for i in range(b):
    for j in range(b):
        want[:, :, i::b, j::b] = xs[:, (i * b + j) * c:(i * b + j + 1) * c]
close(d2s, want)
close(P.SpaceToDepth(2)(Tensor(d2s)), xs)

close(P.IndexAdd(1)(Tensor(np.zeros((2, 3))), Tensor(np.array([0, 2, 0], np.int32)), Tensor(np.ones((2, 3)))),
      [[2, 0, 1], [2, 0, 1]])
close(P.Diag()(Tensor(np.array([1.0, 2.0]))), [[1.0, 0.0], [0.0, 2.0]])
close(P.Lerp()(Tensor(np.array([0.0])), Tensor(np.array([10.0])), 0.25), [2.5])
close(P.Trunc()(Tensor(np.array([-1.5, 1.5]))), [-1.0, 1.0])
print("ok")
close(Tensor(np.array([0.5])).atan(), [np.arctan(0.5)])
close(Tensor(np.array([0.5])).atan2(Tensor(np.array([-1.0]))), np.arctan2([0.5], [-1.0]))
import mindspore.numpy as mnp  # noqa: E402
close(mnp.arctan2(mnp.array([1.0]), mnp.array([-1.0])), [3 * np.pi / 4], rtol=1e-6)
close(mnp.arcsin(mnp.array([0.5])), [np.arcsin(0.5)], rtol=1e-6)
print("methods ok")

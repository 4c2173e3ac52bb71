"""Gradient primitives of mindspore.ops.operations._grad_ops: SigmoidGrad, TanhGrad, SqrtGrad,
RsqrtGrad, ReluGrad, ReLU6Grad against their closed forms (and against mindspore.grad of the
activation), SigmoidCrossEntropyWithLogitsGrad against the loss's gradient, SliceGrad and StridedSliceGrad (with masks, in PyNative and graph mode) against
NumPy; they are names of _grad_ops only."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor
from mindspore.ops import operations as P
from mindspore.ops.operations import _grad_ops as G

from _check import close, raises

rng = np.random.default_rng(0)
x = rng.uniform(0.2, 3.0, (2, 3)).astype(np.float32)
dy = rng.normal(size=(2, 3)).astype(np.float32)
X, DY = Tensor(x), Tensor(dy)
for grad_op, fwd in ((G.SigmoidGrad(), ops.sigmoid), (G.TanhGrad(), ops.tanh), (G.SqrtGrad(), ops.sqrt),
                     (G.RsqrtGrad(), ops.rsqrt)):
    y = fwd(X)
    # the primitive from the output equals the vjp of the forward op
    close(grad_op(y, DY), ms.grad(lambda t: (fwd(t) * DY).sum())(X), rtol=1e-4)
close(G.SqrtGrad()(Tensor(np.array([-1.0, 10.0], np.float32)), Tensor(np.array([1.0, 3.0], np.float32))),
      [-0.5, 0.15])
v = np.array([-1.0, 0.0, 1.0, 5.9, 6.0, 6.1, 10.0], np.float32)
ones = Tensor(np.ones_like(v))
close(G.ReLU6Grad()(ones, Tensor(v)), [0, 0, 1, 1, 1, 0, 0])  # ReLU6 passes the gradient at 6
close(G.ReluGrad()(ones, Tensor(v)), [0, 0, 1, 1, 1, 1, 1])
raises(ValueError, G.SigmoidGrad(), X, Tensor(dy[:1]), match="For 'SigmoidGrad'")
labels = Tensor(rng.uniform(0, 1, (2, 3)).astype(np.float32))
loss = P.SigmoidCrossEntropyWithLogits()
close(G.SigmoidCrossEntropyWithLogitsGrad()(X, labels, DY), ms.grad(lambda t: (loss(t, labels) * DY).sum())(X),
      rtol=1e-4)
close(G.SigmoidCrossEntropyWithLogitsGrad()(Tensor(np.array([2.0], np.float32)), Tensor(np.array([1.0], np.float32)),
                                            Tensor(np.array([1.0], np.float32))), [1 / (1 + np.exp(-2.0)) - 1])
for name in ("SigmoidGrad", "SliceGrad", "StridedSliceGrad"):
    assert not hasattr(ops, name) and not hasattr(P, name), name

a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
d = rng.normal(size=(2, 1, 3)).astype(np.float32)
want = np.zeros_like(a)
want[0:2, 1:2, 1:4] = d
close(G.SliceGrad()(Tensor(d), Tensor(a), (0, 1, 1), (2, 1, -1)), want)
# StridedSliceGrad equals the vjp of StridedSlice with the same masks
for begin, end, strides, masks in (((1, 0, 0), (2, 3, 4), (1, 2, 1), (0, 0, 0, 0, 0)),
                                   ((0, 2, 3), (2, 0, 0), (1, -1, -2), (1, 0, 0, 0, 0)),
                                   ((1, 0, 1), (2, 2, 3), (1, 1, 1), (0, 2, 0, 0, 1))):
    fwd = P.StridedSlice(*masks)
    out = fwd(Tensor(a), begin, end, strides)
    g = Tensor(rng.normal(size=out.shape).astype(np.float32))
    want = ms.grad(lambda t: (fwd(t, begin, end, strides) * g).sum())(Tensor(a))
    close(G.StridedSliceGrad(*masks)(g, a.shape, begin, end, strides), want)
flags = Tensor(np.array([False, True, False]))
got = G.StridedSliceGrad()(flags, (3, 2, 3), (1, 0, 0), (2, 1, 3), (1, 1, 1))
want = np.zeros((3, 2, 3), bool)
want[1, 0] = [False, True, False]
assert got.dtype == ms.bool_ and np.array_equal(got.asnumpy(), want)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ssg = G.StridedSliceGrad()
        self.shape = P.Shape()

    @ms.jit
    def construct(self, g, t):
        return self.ssg(g, self.shape(t), (2, 0, 0), (3, 2, 3), (1, 1, 1))


b = np.arange(18, dtype=np.float32).reshape(3, 2, 3)
g = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
want = np.zeros_like(b)
want[2:3] = g
close(Net()(Tensor(g), Tensor(b)), want)

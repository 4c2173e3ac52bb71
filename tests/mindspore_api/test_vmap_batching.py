"""vmap runs fn once over the batch through batching rules (mindspore._vmap_stats counts op calls
batched by a rule, op calls run per element and gradient calls differentiated batched): rule by
rule equal to the per-element loop, batched-ness decided by dependence (not by values), ops
without a rule run per element, nested vmap, per-example gradients (vmap of grad) of an MLP and a
small convolutional net, grad of vmap, and fns the tracer cannot follow still giving the loop's
values."""
import numpy as np

import mindspore
import mindspore.nn as nn
from mindspore import Tensor, ops

from _check import close, raises

vmap = ops.vmap
rng = np.random.RandomState(7)
B = 5


def stats():
    return mindspore._vmap_stats()


def loop(fn, args, in_axes):
    """The reference: fn per element, outputs stacked on axis 0 (NumPy)."""
    outs = []
    for b in range(B):
        sliced = [a if ax is None else Tensor(np.take(a.asnumpy(), b, axis=ax)) for a, ax in zip(args, in_axes)]
        out = fn(*sliced)
        outs.append(out.asnumpy())
    return np.stack(outs)


def batched(fn, args, in_axes, loops=0, rtol=1e-5, atol=1e-5):
    """vmap(fn) equals the loop; it ran batched (at least one rule) with `loops` per-element ops."""
    before = stats()
    got = vmap(fn, in_axes=tuple(in_axes))(*args)
    after = stats()
    assert after[0] > before[0], "no op ran through a batching rule"
    assert after[1] - before[1] == loops, "%d ops ran per element, expected %d" % (after[1] - before[1], loops)
    close(got, loop(fn, args, in_axes), rtol=rtol, atol=atol)
    return got


def t(*shape, dtype=np.float32):
    return Tensor(rng.randn(*shape).astype(dtype))


x34, y34, y4 = t(B, 3, 4), t(B, 3, 4), t(4)
# elementwise with broadcasting between batched operands of different ranks and unbatched ones
batched(lambda x, y: x * y + ops.exp(-x), (x34, y34), (0, 0))
batched(lambda x, y: x - y, (x34, y4), (0, None))
batched(lambda x, y: ops.maximum(x, y), (t(B, 4), t(3, 4)), (0, None))
batched(lambda x, y: ops.select(x > y, x, y), (t(4, B), t(3, 4)), (1, None))
batched(lambda x: ops.relu(x) + ops.sigmoid(x) + ops.tanh(x), (x34,), (0,))
batched(lambda x: x.astype(mindspore.float64) * 2, (x34,), (0,))
# reductions: axis shifted past the batch, keep_dims, all axes
batched(lambda x: x.sum(), (x34,), (0,))
batched(lambda x: x.mean(axis=-1, keep_dims=True), (x34,), (0,))
batched(lambda x: ops.amax(x, axis=0), (x34,), (0,))
batched(lambda x: ops.argmax(x, dim=1), (x34,), (0,))
# shapes
batched(lambda x: x.reshape(2, 6), (x34,), (0,))
batched(lambda x: ops.transpose(x, (1, 0)), (x34,), (0,))
batched(lambda x: ops.expand_dims(x, 1), (x34,), (0,))
batched(lambda x: ops.squeeze(ops.expand_dims(x, 0)), (t(B, 1, 3),), (0,))  # batch 5, not squeezed
batched(lambda x, y: ops.concat((x, y), axis=1), (x34, t(3, 2)), (0, None))
batched(lambda x, y: ops.stack((x, y), axis=-1), (x34, y34), (0, 0))
batched(lambda x: ops.split(x, 2, axis=1)[1], (x34,), (0,))
batched(lambda x: x[1:, ::2], (x34,), (0,))
batched(lambda x: ops.gather(x, Tensor(np.array([2, 0], np.int32)), 1), (x34,), (0,))
batched(lambda x: ops.tile(x, (2, 1)), (x34,), (0,))
batched(lambda x: ops.broadcast_to(x, (2, 3, 4)), (x34,), (0,))
# matrix products, softmax, losses
batched(lambda x, w: ops.matmul(x, w), (x34, t(4, 2)), (0, None))
batched(lambda x, w: ops.matmul(x, w), (t(3, 4), t(B, 4, 2)), (None, 0))
batched(lambda x, w: ops.bmm(x, w), (t(B, 2, 3, 4), t(2, 4, 5)), (0, None))
batched(lambda x: ops.softmax(x, axis=0), (x34,), (0,))
batched(lambda x: ops.log_softmax(x), (x34,), (0,))
labels = Tensor(rng.randint(0, 4, size=(B, 3)).astype(np.int32))
batched(lambda x, y: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(x, y), (x34, labels), (0, 0))
dense = nn.Dense(4, 2)
batched(lambda x: dense(x), (x34,), (0,))
# conv2d and pooling fold the batch into N
conv = nn.Conv2d(2, 3, 3, pad_mode="same")
pool = nn.MaxPool2d(kernel_size=2, stride=2)
batched(lambda x: pool(ops.relu(conv(x))), (t(B, 1, 2, 6, 6),), (0,), rtol=1e-4, atol=1e-4)

# a batched filter: the batch becomes the groups of one convolution
batched(lambda x, w: ops.conv2d(x, w), (t(1, 2, 5, 5), t(B, 3, 2, 3, 3)), (None, 0), rtol=1e-4, atol=1e-4)
batched(lambda x, w: ops.conv2d(x, w, pad_mode="pad", padding=1), (t(B, 2, 2, 5, 5), t(B, 4, 2, 3, 3)), (0, 0),
        rtol=1e-4, atol=1e-4)

# ops without a rule run per element, with the loop's values: LayerNorm, and Gather of batched
# params at batched indices
norm = nn.LayerNorm((4,))
batched(lambda x: norm(x) * 2, (x34,), (0,), loops=1)
idx = Tensor(rng.randint(0, 4, size=(B, 2)).astype(np.int32))
batched(lambda x, i: ops.gather(x, i, 1) + 1, (x34, idx), (0, 0), loops=1)

# batched-ness is structural: x * 0 is equal across the batch but depends on it, so it is batched
# (out_axes None refuses it); an output that does not depend on the batch is broadcast.
raises(RuntimeError, vmap(lambda x: (x.sum(), x * 0), out_axes=(0, None)), x34, match="source is not None and dst is None")
const = Tensor(np.array([1., 2.], np.float32))
close(vmap(lambda x: (x * 0, const + 1), out_axes=(0, 1))(x34)[1], np.stack([[2., 3.]] * B, axis=1))
assert vmap(lambda x: (x.sum(), const), out_axes=(0, None))(x34)[1] is const

# nested vmap: both levels batched, the inner one's batch inside the outer's
a = t(B, 3, 4)
close(vmap(vmap(lambda v, w: (v * w).sum(), in_axes=(0, None)), in_axes=(0, None))(a, y4),
      (a.asnumpy() * y4.asnumpy()).sum(-1))
close(vmap(vmap(lambda v: ops.softmax(v), in_axes=1, out_axes=1))(a), np.exp(a.asnumpy()) /
      np.exp(a.asnumpy()).sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)


# per-example gradients of an MLP's loss w.r.t. its weights: vmap(grad) against the loop of grads
class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8)
        self.fc2 = nn.Dense(8, 3)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


net = MLP()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
params = net.trainable_params()


def example_loss(x, y):
    return loss_fn(net(ops.expand_dims(x, 0)), ops.expand_dims(y, 0))


grad_fn = mindspore.grad(example_loss, None, params)
xb = t(B, 6)
yb = Tensor(rng.randint(0, 3, size=(B,)).astype(np.int32))
before = stats()
per_example = vmap(grad_fn, in_axes=(0, 0))(xb, yb)
after = stats()
assert after[2] == before[2] + 1 and after[1] == before[1], "vmap(grad) did not run batched"
for i, p in enumerate(params):
    assert per_example[i].shape == (B,) + tuple(p.shape)
    want = np.stack([grad_fn(xb[b], yb[b])[i].asnumpy() for b in range(B)])
    close(per_example[i], want, rtol=1e-4, atol=1e-6)
# the per-example gradients sum to the batch gradient
batch_grads = mindspore.grad(lambda x, y: loss_fn(net(x), y) * B, None, params)(xb, yb)
for g, pe in zip(batch_grads, per_example):
    close(pe.asnumpy().sum(0), g, rtol=1e-4, atol=1e-5)



# per-example gradients through a convolution, pooling and a Dense layer (the filters' per-example
# copies run as one grouped convolution)
class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="same", has_bias=True)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(18, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(ops.relu(self.conv(x)))))


cnet = ConvNet()
cparams = cnet.trainable_params()
cgrad = mindspore.grad(lambda x, y: loss_fn(cnet(ops.expand_dims(x, 0)), ops.expand_dims(y, 0)), None, cparams)
xc = t(B, 1, 6, 6)
before = stats()
per_example = vmap(cgrad)(xc, yb)
assert stats()[1] == before[1], "a per-element loop ran"
for i, p in enumerate(cparams):
    want = np.stack([cgrad(xc[b], yb[b])[i].asnumpy() for b in range(B)])
    close(per_example[i], want, rtol=1e-4, atol=1e-6)

# vmap(grad) w.r.t. inputs, one batched and one not: each element's own gradient of the shared one
gx, gw = vmap(mindspore.grad(lambda x, w: (ops.sin(x) * w).sum(), (0, 1)), in_axes=(0, None))(x34, y4)
close(gx, np.cos(x34.asnumpy()) * y4.asnumpy(), rtol=1e-5, atol=1e-6)
close(gw, np.sin(x34.asnumpy()).sum(axis=1), rtol=1e-5, atol=1e-5)

# value_and_grad with has_aux inside vmap
(v, aux), g = vmap(mindspore.value_and_grad(lambda x: ((x * x).sum(), x + 1), 0, has_aux=True))(x34)
close(v, (x34.asnumpy() ** 2).sum(axis=(1, 2)), rtol=1e-5, atol=1e-5)
close(aux, x34.asnumpy() + 1)
close(g, 2 * x34.asnumpy())

# grad of vmap: the batched ops are differentiated
xa = rng.randn(B, 4)
f = lambda x: vmap(lambda v: ops.softmax(v)[0] * v.sum())(x).sum()
g = mindspore.grad(f)(Tensor(xa))
eps, num = 1e-6, np.zeros_like(xa)
for idx in np.ndindex(xa.shape):
    p, m = xa.copy(), xa.copy()
    p[idx] += eps
    m[idx] -= eps
    num[idx] = (float(f(Tensor(p)).asnumpy()) - float(f(Tensor(m)).asnumpy())) / (2 * eps)
close(g, num, rtol=1e-5, atol=1e-6)

# graph-mode Cells inside vmap run as in PyNative over the logical tensors (GradOperation with
# sens, as MindSpore's own vmap tests use it)
class MinNet(nn.Cell):
    def construct(self, a, b):
        return ops.minimum(a, b)


class GradWrap(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, a, b, s):
        return self.grad(self.net)(a, b, s)


mindspore.set_context(mode=mindspore.GRAPH_MODE)
xa, ya, sa = rng.rand(B, 4), rng.rand(B, 4), rng.rand(B, 4)
before = stats()
dx, dy = vmap(GradWrap(MinNet()), in_axes=(0, 0, 0))(Tensor(xa), Tensor(ya), Tensor(sa))
assert stats()[2] == before[2] + 1
close(dx, sa * (xa < ya))
close(dy, sa * (xa > ya))
dx, dy = vmap(GradWrap(MinNet()), in_axes=(0, None, None))(Tensor(xa), Tensor(ya[0]), Tensor(sa[0]))
close(dx, sa[0] * (xa < ya[0]))
close(dy, sa[0] * (xa > ya[0]))
mindspore.set_context(mode=mindspore.PYNATIVE_MODE)

# a fn the tracer cannot follow (it reads values in Python) runs per element with the same values
close(vmap(lambda x: x * float(x.asnumpy().max()))(x34),
      np.stack([v * v.max() for v in x34.asnumpy()]), rtol=1e-5, atol=1e-6)
print("ok")

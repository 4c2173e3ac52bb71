"""ops.jvp / jacfwd by forward mode: rules (and the fallback) against the double vjp, float64
central differences and closed forms; grad of jvp, jvp of grad; has_aux with non-Tensor aux."""
import numpy as np

import mindspore
import mindspore.nn as nn
from mindspore import Tensor, ops
from mindspore.ops import GradOperation

from _check import close, raises

rng = np.random.RandomState(3)


def double_vjp(fn, x, v):
    inner = GradOperation(get_all=True, sens_param=True)
    out = fn(x)
    return GradOperation(get_all=True, sens_param=True)(lambda u: inner(fn)(x, u)[0])(ops.ones_like(out), v)[0]


def fd(fn, x, v, eps=1e-6):
    return (fn(Tensor(x + eps * v)).asnumpy() - fn(Tensor(x - eps * v)).asnumpy()) / (2 * eps)


class Small(nn.Cell):
    """Conv, pooling, Dense, softmax: ops with forward rules; LayerNorm: the double-vjp fallback."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="valid", has_bias=True)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.norm = nn.LayerNorm((8,))
        self.fc = nn.Dense(8, 3)

    def construct(self, x):
        h = self.pool(ops.relu(self.conv(x)))
        h = self.norm(ops.reshape(h, (h.shape[0], -1)))
        return ops.log_softmax(self.fc(ops.tanh(h)), -1)


net = Small()
for p in net.trainable_params():
    p.set_dtype(mindspore.float64)  # float64 parameters, so differences are exact enough
    p.set_data(Tensor(rng.randn(*p.shape)))
x = rng.randn(2, 1, 6, 6)
v = rng.randn(2, 1, 6, 6)
before = mindspore._jvp_stats()
out, jv = ops.jvp(net, Tensor(x), Tensor(v))
after = mindspore._jvp_stats()
assert after[0] - before[0] >= 8, after            # conv, bias, relu, pool, reshape, tanh, dense, log_softmax
assert after[1] - before[1] >= 1, after            # LayerNorm has no forward rule
close(jv, double_vjp(net, Tensor(x), Tensor(v)).asnumpy(), rtol=1e-10, atol=1e-12)
close(jv, fd(net, x, v), rtol=1e-6, atol=1e-7)

# closed form: d sin(x) x = (cos(x) x + sin(x)) dx
a = rng.randn(3, 4)
da = rng.randn(3, 4)
_, t = ops.jvp(lambda q: ops.sin(q) * q, Tensor(a), Tensor(da))
close(t, (np.cos(a) * a + np.sin(a)) * da, rtol=1e-12, atol=1e-12)

# an output that does not depend on the inputs has a zero tangent
_, t = ops.jvp(lambda q: ops.ones_like(q) * 2, Tensor(a), Tensor(da))
close(t, np.zeros((3, 4)))

# has_aux: the tangent of output 0 only; the aux may be any object
out, t, aux = ops.jvp(lambda q: (q ** 2, "note"), Tensor(a), Tensor(da), has_aux=True)
close(out, a ** 2)
close(t, 2 * a * da)
assert aux == "note"
raises(ValueError, ops.jvp, lambda q: q, Tensor(a), Tensor(da), has_aux=True, match="requires more than one outputs")
raises(ValueError, ops.jvp, lambda q: q, Tensor(a), Tensor(np.ones(3)), match="the shape of each element of 'v'")

# jvp of grad: a Hessian-vector product; grad of jvp: d/dx <J v, 1>
f = lambda q: ops.sum(ops.exp(q) * q)
_, hv = ops.jvp(mindspore.grad(f), Tensor(a), Tensor(da))
close(hv, (np.exp(a) * (a + 2)) * da, rtol=1e-12, atol=1e-12)
g = mindspore.grad(lambda q: ops.sum(ops.jvp(ops.sin, q, Tensor(da))[1]))(Tensor(a))
close(g, -np.sin(a) * da, rtol=1e-12, atol=1e-12)

# nested forward mode: jvp of jvp gives the second directional derivative
inner = lambda q: ops.jvp(lambda r: r ** 3, q, Tensor(da))[1]
_, second = ops.jvp(inner, Tensor(a), Tensor(da))
close(second, 6 * a * da * da, rtol=1e-12, atol=1e-12)

# jacfwd of a network layer against jacrev
dense = nn.Dense(4, 3)
j1 = ops.jacfwd(dense)(Tensor(rng.randn(2, 4).astype(np.float32)))
j2 = ops.jacrev(dense)(Tensor(rng.randn(2, 4).astype(np.float32)))
close(j1, j2.asnumpy())
print("ok")

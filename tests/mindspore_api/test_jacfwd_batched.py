"""ops.jacfwd runs one jvp vmapped over every basis tangent (the tangents of all differentiated
inputs stacked on one batch axis): its Jacobians equal jacrev's and float64 central differences,
for one or several outputs and grad_positions, has_aux, a scalar output, and an op without a
batching rule (LayerNorm, which vmap runs per basis tangent inside the trace); grad of jacfwd
compiles in GRAPH_MODE."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor, ops

from _check import close

rng = np.random.RandomState(7)
W = Tensor(rng.randn(4, 3))


def fd_jacobian(fn, args, position, output=None, eps=1e-6):
    """d fn(args)[output] / d args[position], shape output.shape + input.shape, in float64."""
    base = [a.asnumpy() for a in args]
    x = base[position]
    columns = []
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = eps
        plus, minus = list(base), list(base)
        plus[position] = x + step.reshape(x.shape)
        minus[position] = x - step.reshape(x.shape)
        hi = fn(*[Tensor(a) for a in plus])
        lo = fn(*[Tensor(a) for a in minus])
        if output is not None:
            hi, lo = hi[output], lo[output]
        columns.append((hi.asnumpy() - lo.asnumpy()) / (2 * eps))
    return np.stack(columns, -1).reshape(columns[0].shape + x.shape)


def agree(fwd, rev, fd):
    close(fwd, rev.asnumpy(), rtol=1e-10, atol=1e-12)
    close(fwd, fd, rtol=1e-6, atol=1e-7)


# one input, one output
def f1(a):
    return ops.tanh(ops.matmul(W, a)) * a.sum()


x = Tensor(rng.randn(3))
agree(ops.jacfwd(f1)(x), ops.jacrev(f1)(x), fd_jacobian(f1, [x], 0))


# two outputs, two positions: jac[output][position]
def f2(a, b):
    return a * b.sum(), ops.sin(ops.matmul(W, a)) * b[0, 1]


a, b = Tensor(rng.randn(3)), Tensor(rng.randn(2, 2))
fwd = ops.jacfwd(f2, grad_position=(0, 1))(a, b)
rev = ops.jacrev(f2, grad_position=(0, 1))(a, b)
assert fwd[1][1].shape == (4, 2, 2), fwd[1][1].shape
for k in range(2):
    for i in range(2):
        agree(fwd[k][i], rev[k][i], fd_jacobian(f2, [a, b], i, output=k))


# several grad_positions of three arguments, one output
def f3(p, q, r):
    return p * ops.exp(q) + r.sum() * p ** 2


p, q, r = Tensor(rng.randn(2)), Tensor(rng.randn(2)), Tensor(rng.randn(3))
for positions in ((0, 2), (1, 2), 1):
    fwd = ops.jacfwd(f3, grad_position=positions)(p, q, r)
    rev = ops.jacrev(f3, grad_position=positions)(p, q, r)
    for j, pos in enumerate(positions if isinstance(positions, tuple) else (positions,)):
        one = fwd[j] if isinstance(positions, tuple) else fwd
        other = rev[j] if isinstance(positions, tuple) else rev
        agree(one, other, fd_jacobian(f3, [p, q, r], pos))


# has_aux: the Jacobian of output 0, the aux as fn returned it
def f4(a):
    return ops.cos(a) * a, a.sum() + 1


x = Tensor(rng.randn(2, 3))
jac, aux = ops.jacfwd(f4, has_aux=True)(x)
jac_rev, aux_rev = ops.jacrev(f4, has_aux=True)(x)
agree(jac, jac_rev, fd_jacobian(lambda a: f4(a)[0], [x], 0))
close(aux, aux_rev.asnumpy())
close(aux, x.asnumpy().sum() + 1)

# a scalar output of a matrix: its gradient's shape
agree(ops.jacfwd(lambda a: (a ** 3).sum())(x), ops.jacrev(lambda a: (a ** 3).sum())(x),
      3 * x.asnumpy() ** 2)

# LayerNorm has no batching rule: vmap runs it per basis tangent, with the same Jacobian
norm = nn.LayerNorm((3,))
for param in norm.trainable_params():
    param.set_dtype(ms.float64)  # set_data keeps a Parameter's dtype, as in MindSpore
    param.set_data(Tensor(rng.randn(*param.shape)))
x = Tensor(rng.randn(2, 3))
agree(ops.jacfwd(norm)(x), ops.jacrev(norm)(x), fd_jacobian(norm, [x], 0))

# one vmapped jvp: fn runs twice (its outputs, then the batched trace) whatever the input's size
calls = []


def counted(a):
    calls.append(1)
    return ops.tanh(a) * 2


close(ops.jacfwd(counted)(Tensor(np.zeros(50))), np.eye(50) * 2)
assert len(calls) == 2, len(calls)

# compiled: grad of a jacfwd in GRAPH_MODE (the vmapped jvp traced into the graph) equals jacrev's
ms.set_context(mode=ms.GRAPH_MODE)
try:
    x = Tensor(rng.randn(3))
    twice = lambda a: ops.sin(ops.sin(a)) * a.sum()
    close(ops.grad(lambda a: ops.jacfwd(twice)(a).sum())(x),
          ops.grad(lambda a: ops.jacrev(twice)(a).sum())(x).asnumpy(), rtol=1e-10, atol=1e-12)
finally:
    ms.set_context(mode=ms.PYNATIVE_MODE)

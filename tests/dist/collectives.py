"""The collective primitives across the ranks of `gradstep run --ranks N`: values of AllReduce
(sum, max, min, prod), AllGather, ReduceScatter, Broadcast and AlltoAll, and their gradients,
MindSpore's bprops, against the same numbers computed with NumPy from every rank's inputs (each
rank can compute any rank's input: it is a function of the rank)."""
import numpy as np

import mindspore as ms
from mindspore import ops, Tensor
from mindspore.communication import init, get_rank, get_group_size

init()
rank, size = get_rank(), get_group_size()


def x_of(r, shape=(2, 3)):
    # Positive, distinct per rank (the max is the last rank's, no ties).
    return (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) + 1.0) * (r + 1) * 0.5 - 0.3 * r


def w_of(r, shape):
    return np.linspace(0.5, 1.5, int(np.prod(shape)), dtype=np.float32).reshape(shape) + r


def close(got, want, what):
    got = got.asnumpy() if hasattr(got, "asnumpy") else np.asarray(got)
    assert got.shape == want.shape, "%s: shape %s, expected %s" % (what, got.shape, want.shape)
    assert np.allclose(got, want, rtol=1e-5, atol=1e-5), "%s on rank %d:\n%s\nexpected\n%s" % (what, rank, got, want)


xs = [x_of(r) for r in range(size)]
x = Tensor(xs[rank])

# Values.
close(ops.AllReduce()(x), sum(xs), "AllReduce sum")
close(ops.AllReduce(ops.ReduceOp.MAX)(x), np.max(xs, axis=0), "AllReduce max")
close(ops.AllReduce(ops.ReduceOp.MIN)(x), np.min(xs, axis=0), "AllReduce min")
close(ops.AllReduce(ops.ReduceOp.PROD)(x), np.prod(xs, axis=0), "AllReduce prod")
close(ops.AllGather()(x), np.concatenate(xs, axis=0), "AllGather")
stacked = [np.concatenate([x_of(r, (1, 3)) * (k + 1) for k in range(size)], axis=0) for r in range(size)]
close(ops.ReduceScatter()(Tensor(stacked[rank])), sum(s[rank:rank + 1] for s in stacked), "ReduceScatter")
(b,) = ops.Broadcast(0)((x,))
close(b, xs[0], "Broadcast")
a2a_in = [np.arange(2 * size * 3, dtype=np.float32).reshape(2 * size, 3) + 100 * r for r in range(size)]
want = np.concatenate([a2a_in[r][2 * rank:2 * rank + 2] for r in range(size)], axis=1)
close(ops.AlltoAll(size, 0, 1)(Tensor(a2a_in[rank])), want, "AlltoAll")


# Gradients of L_r = sum(op(x_r) * w_r) on each rank; MindSpore's bprops give these per rank.
def grad_of(fn, inp, w):
    return ms.grad(lambda t: (fn(t) * Tensor(w)).sum())(Tensor(inp))


ws = [w_of(r, (2, 3)) for r in range(size)]
close(grad_of(ops.AllReduce(), xs[rank], ws[rank]), sum(ws), "AllReduce sum gradient")
out_prod = np.prod(xs, axis=0)
close(grad_of(ops.AllReduce(ops.ReduceOp.PROD), xs[rank], ws[rank]),
      sum(w * out_prod for w in ws) / xs[rank], "AllReduce prod gradient")
out_max = np.max(xs, axis=0)
close(grad_of(ops.AllReduce(ops.ReduceOp.MAX), xs[rank], ws[rank]),
      sum(ws) * (xs[rank] == out_max), "AllReduce max gradient")
wg = [w_of(r, (2 * size, 3)) for r in range(size)]
close(grad_of(ops.AllGather(), xs[rank], wg[rank]), sum(wg)[2 * rank:2 * rank + 2], "AllGather gradient")
ws1 = [w_of(r, (1, 3)) for r in range(size)]
close(grad_of(ops.ReduceScatter(), stacked[rank], ws1[rank]), np.concatenate(ws1, axis=0), "ReduceScatter gradient")
close(grad_of(lambda t: ops.Broadcast(0)((t,))[0], xs[rank], ws[rank]), ws[rank], "Broadcast gradient")
wa = [w_of(r, (2, 3 * size)) for r in range(size)]
close(grad_of(ops.AlltoAll(size, 0, 1), a2a_in[rank], wa[rank]),
      np.concatenate([wa[r][:, 3 * rank:3 * rank + 3] for r in range(size)], axis=0), "AlltoAll gradient")

print("collectives ok on rank %d of %d" % (rank, size))

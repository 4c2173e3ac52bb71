"""Tensor-dependent control flow, and its ops.select rewrite.

What it teaches: `if x.mean() > 0.5:` reads a tensor's value to choose a branch. In PyNative mode
that is ordinary Python: only the branch taken is recorded, so the gradient is that branch's.
In graph mode the condition becomes a control-flow node with two compiled branches. The
branch-free rewrite with ops.select computes both sides and picks elementwise: one graph, no
control flow, and the same values and gradients as the `if`.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops


def with_if(x):
    if x.mean() > 0.5:
        y = x * x
    else:
        y = x * 3.0
    return y.sum()


def with_select(x):
    condition = ops.broadcast_to(x.mean() > 0.5, x.shape)
    return ops.select(condition, x * x, x * 3.0).sum()


for values in ([0.2, 0.4, 0.6], [0.6, 0.8, 1.0]):
    x = Tensor(np.array(values, np.float32))
    v_if, g_if = ms.value_and_grad(with_if)(x)
    v_sel, g_sel = ms.value_and_grad(with_select)(x)
    branch = "x * x" if float(x.mean()) > 0.5 else "x * 3"
    print(f"x = {values}  mean {float(x.mean()):.2f} -> {branch}:  "
          f"if: {float(v_if):.3f} {g_if.asnumpy()}   select: {float(v_sel):.3f} {g_sel.asnumpy()}")
    assert np.allclose(v_if.asnumpy(), v_sel.asnumpy()) and np.allclose(g_if.asnumpy(), g_sel.asnumpy())

"""Forward mode (jvp) against reverse mode (vjp) on a small function.

What it teaches: ops.jvp pushes a direction v through the function WITH the values, in one
forward pass, and gives J v (how the outputs move when the inputs move along v); ops.vjp runs
the function and then one backward pass from a cotangent u, and gives u^T J (what gradient
descent uses). One jvp is one column combination of the Jacobian, one vjp one row combination:
forward mode pays one pass per input direction, reverse mode one per output, so forward mode
wins for functions with few inputs and many outputs, reverse mode for losses (one output). Both
meet in <u, J v> = <J^T u, v>, and both build the same full Jacobian (jacfwd, jacrev).

In the window (`gradstep gui samples/forward_mode.py`, F11 to step), every node the jvp reaches
shows its tangent dy beside its value, the inspector's Tangent tab shows dy element by element,
and the Chain rule panel explains each node in forward mode: dy = J_op · dx with the numbers
(at a backward node of the vjp it explains reverse mode, dL/dx = dL/dy · dy/dx).
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops

W = Tensor(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]))


def f(x):
    """R^3 -> R^2: y = tanh(W x) * |x|^2."""
    h = ops.tanh(ops.matmul(W, x))
    return h * ops.sum(x * x)


x = Tensor(np.array([0.3, -0.2, 0.1]))
v = Tensor(np.array([1.0, 0.0, 0.0]))  # move x along its first axis
u = Tensor(np.array([0.0, 1.0]))       # look at the second output

# Forward mode: the value and J v in one pass.
y, jv = ops.jvp(f, x, v)
print("f(x)          ", y.asnumpy())
print("J v (jvp)     ", jv.asnumpy())

# Reverse mode: the value, then u^T J from one backward pass.
y2, vjp_fn = ops.vjp(f, x)
(uj,) = vjp_fn(u)
print("u^T J (vjp)   ", uj.asnumpy())

# The whole Jacobian: 3 jvps (one per input) or 2 vjps (one per output).
jac_fwd = ops.jacfwd(f)(x).asnumpy()
jac_rev = ops.jacrev(f)(x).asnumpy()
print("J (jacfwd)\n", jac_fwd)
assert np.allclose(jac_fwd, jac_rev, atol=1e-12), "both modes build the same Jacobian"
assert np.allclose(jv.asnumpy(), jac_fwd @ v.asnumpy(), atol=1e-12), "jvp is J v"
assert np.allclose(uj.asnumpy(), u.asnumpy() @ jac_fwd, atol=1e-12), "vjp is u^T J"

# They meet: <u, J v> = <J^T u, v>.
left = float(np.dot(u.asnumpy(), jv.asnumpy()))
right = float(np.dot(uj.asnumpy(), v.asnumpy()))
print(f"<u, J v> = {left:.10f}   <J^T u, v> = {right:.10f}")
assert abs(left - right) < 1e-12

# And both are derivatives: central differences along v agree with J v.
eps = 1e-6
fd = (f(x + eps * v).asnumpy() - f(x - eps * v).asnumpy()) / (2 * eps)
print("finite diff.  ", fd)
assert np.allclose(jv.asnumpy(), fd, atol=1e-8)

# Forward mode through a gradient: the Hessian-vector product H v of a scalar loss, with no
# Hessian formed: jvp of the gradient function.
loss = lambda t: ops.sum(f(t) ** 2)
_, hv = ops.jvp(ms.grad(loss), x, v)
hess = ops.jacfwd(ms.grad(loss))(x).asnumpy()
print("H v           ", hv.asnumpy())
assert np.allclose(hv.asnumpy(), hess @ v.asnumpy(), atol=1e-10)

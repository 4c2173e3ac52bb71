"""vjp / jvp / jacfwd / jacrev against closed forms and central finite differences (float64)."""
import numpy as np

import mindspore
import mindspore.nn as nn
from mindspore import Tensor, ops
from mindspore.ops import functional as F

from _check import close, raises

assert F.vjp is ops.vjp is mindspore.vjp and F.jvp is mindspore.jvp
assert mindspore.jacfwd is ops.jacfwd and mindspore.jacrev is ops.jacrev

x_np = np.array([[1., 2.], [3., 4.]])
y_np = np.array([[0.5, -1.], [2., 0.25]])
x, y = Tensor(x_np), Tensor(y_np)
v = Tensor(np.array([[1., -2.], [0.5, 3.]]))


class Net(nn.Cell):
    def construct(self, a, b):
        return a ** 3 + ops.sin(b) * a


# vjp: one input gives a 1-tuple; v^T J by closed form
out, vjp_fn = ops.vjp(Net(), x, y)
close(out, x_np ** 3 + np.sin(y_np) * x_np)
gx, gy = vjp_fn(v)
close(gx, v.asnumpy() * (3 * x_np ** 2 + np.sin(y_np)))
close(gy, v.asnumpy() * np.cos(y_np) * x_np)
out1, vjp1 = ops.vjp(lambda a: a ** 2, x)
g = vjp1(v)
assert isinstance(g, tuple) and len(g) == 1
close(g[0], 2 * x_np * v.asnumpy())

# several outputs: one vector per output (positional or as one tuple)
two = lambda a, b: (2 * a, b ** 3)
_, vjp2 = ops.vjp(two, x, y)
ga, gb = vjp2(v, v)
close(ga, 2 * v.asnumpy())
close(gb, 3 * y_np ** 2 * v.asnumpy())
ga2, gb2 = vjp2((v, ops.zeros_like(v)))
close(ga2, 2 * v.asnumpy())
close(gb2, np.zeros((2, 2)))

# has_aux: output 0 only, aux returned as is (not a 1-tuple for one aux)
out, vjp3, aux = ops.vjp(lambda a, b: (2 * a + b, b ** 3), x, y, has_aux=True)
close(out, 2 * x_np + y_np)
close(aux, y_np ** 3)
ga, gb = vjp3(v)
close(ga, 2 * v.asnumpy())
close(gb, v.asnumpy())
raises(ValueError, ops.vjp, lambda a: a, x, has_aux=True, match="requires more than one outputs")
raises(TypeError, ops.vjp, lambda a: a, 3, match="The inputs type must be Tensor")
raises(TypeError, ops.vjp, lambda a: a, x, has_aux=1, match="'has_aux' must be bool")

# weights: ((input grads), (weight grads)) equal to grad's
net = nn.Dense(3, 2)
inp = Tensor(np.random.RandomState(0).randn(4, 3).astype(np.float32))
weights = net.trainable_params()
res, vjp4 = ops.vjp(net, inp, weights=weights)
ig, wg = vjp4(ops.ones_like(res))
ref = ops.grad(net, grad_position=0, weights=weights)(inp)
close(ig[0], ref[0].asnumpy())
close(wg[0], ref[1][0].asnumpy())
close(wg[1], ref[1][1].asnumpy())


# jvp: J v by closed form, for one and two inputs and outputs
def fd_jvp(fn, args, tangents, eps=1e-6):
    plus = fn(*[Tensor(a + eps * t) for a, t in zip(args, tangents)])
    minus = fn(*[Tensor(a - eps * t) for a, t in zip(args, tangents)])
    return (plus.asnumpy() - minus.asnumpy()) / (2 * eps)


out, jv = ops.jvp(Net(), (x, y), (v, v))
close(out, x_np ** 3 + np.sin(y_np) * x_np)
close(jv, fd_jvp(Net(), [x_np, y_np], [v.asnumpy(), v.asnumpy()]), rtol=1e-6, atol=1e-6)
out, jv = ops.jvp(lambda a: ops.exp(a) * a, x, v)
close(jv, (np.exp(x_np) * x_np + np.exp(x_np)) * v.asnumpy())
out, jv = ops.jvp(lambda a, b: (a * b, a - b), [x, y], [v, v])
assert isinstance(jv, tuple) and len(jv) == 2
close(jv[0], v.asnumpy() * y_np + x_np * v.asnumpy())
close(jv[1], np.zeros((2, 2)))
out, jv, aux = ops.jvp(lambda a, b: (a ** 3 + b, b), (x, y), (v, v), has_aux=True)
close(out, x_np ** 3 + y_np)
close(jv, 3 * x_np ** 2 * v.asnumpy() + v.asnumpy())
close(aux, y_np)
raises(TypeError, ops.jvp, lambda a: a, 3, v, match="The inputs type must be a Tensor, tuple or list")
# jvp is differentiable again: d/dx of sum(J v) for f = x^3 is 6 x v
close(ops.grad(lambda a: ops.jvp(lambda t: t ** 3, a, v)[1].sum())(x), 6 * x_np * v.asnumpy())

# Jacobians: shape output.shape + input.shape, jac[output][position]
x3 = np.array([[1., 2.], [3., 4.]])
y3 = np.array([[-2., 3.], [-1., 2.]])
z3 = np.array([[0., 3.], [5., -1.]])


class MIMO(nn.Cell):
    def construct(self, a, b, c):
        return a ** 2 + b ** 2 + c ** 2, a * b * c


def diag_jac(d):
    return np.einsum("ij,ik,jl->ijkl", d, np.eye(2), np.eye(2))


for jac_fn in (ops.jacrev, ops.jacfwd):
    j = jac_fn(MIMO(), grad_position=(1, 2))(Tensor(x3), Tensor(y3), Tensor(z3))
    assert isinstance(j, tuple) and len(j) == 2 and len(j[0]) == 2
    close(j[0][0], diag_jac(2 * y3))
    close(j[0][1], diag_jac(2 * z3))
    close(j[1][0], diag_jac(x3 * z3))
    close(j[1][1], diag_jac(x3 * y3))
    j0, aux = jac_fn(MIMO(), has_aux=True)(Tensor(x3), Tensor(y3), Tensor(z3))
    close(j0, diag_jac(2 * x3))
    close(aux, x3 * y3 * z3)
    single = jac_fn(lambda a: a ** 3)(Tensor(x3))
    close(single, diag_jac(3 * x3 ** 2))
    # a dense Jacobian (matrix product) against finite differences
    w = np.array([[1., 2., 0.], [0., -1., 3.]])
    dense = jac_fn(lambda a: ops.matmul(ops.tanh(a), Tensor(w)))(Tensor(x3))
    ref = np.zeros((2, 3, 2, 2))
    for i in range(2):
        for k in range(2):
            e = np.zeros((2, 2))
            e[i, k] = 1e-6
            ref[:, :, i, k] = (np.tanh(x3 + e) @ w - np.tanh(x3 - e) @ w) / 2e-6
    close(dense, ref, rtol=1e-5, atol=1e-6)
    raises(ValueError, jac_fn(MIMO(), grad_position=3), Tensor(x3), Tensor(y3), Tensor(z3),
           match="must belong to [0, args_num)")
    raises(TypeError, jac_fn(MIMO(), grad_position=[0]), Tensor(x3), Tensor(y3), Tensor(z3),
           match="must be int or tuple")

# Hessian as jacfwd(jacrev): f = sum(x^3) -> diag(6x)
hess = ops.jacfwd(ops.jacrev(lambda a: (a ** 3).sum()))(Tensor(np.array([1., 2., 3.])))
close(hess, np.diag([6., 12., 18.]))

# GradOperation's flags are readable, not writable
g = ops.GradOperation(get_all=True, sens_param=True)
assert g.get_all is True and g.sens_param is True and g.get_by_list is False
assert ops.GradOperation().sens_param is False
raises(AttributeError, setattr, g, "sens_param", False)
print("ok")

# custom_vjp: the backward given to defbwd replaces the derivative
from mindspore.ops.function.grad.grad_func import custom_vjp  # noqa: E402


@custom_vjp
def mul_add(p, q):
    return 2 * p + q


mul_add.defbwd(lambda p, q, out, dout: (2 * dout, 2 * q))
_, vjp_c = ops.vjp(mul_add, Tensor(np.array(1.0)), Tensor(np.array(2.0)))
gp, gq = vjp_c(Tensor(np.array(1.0)))
close(gp, 2.0)
close(gq, 4.0)
print("ok custom_vjp")

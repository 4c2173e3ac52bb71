"""The optimizer update primitives of mindspore.ops / P (ApplyGradientDescent, ApplyAdagrad,
ApplyFtrl): each writes the new values into its Parameters in place, as MindSpore's kernels do,
and returns them. Inputs are checked as MindSpore's infer functions check them: the Parameters
and the gradient are float16 / float32 Tensors, the scalars (lr, alpha, l1, ...) a Number or a
Tensor of the same float types."""
import numbers

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register

_FLOATS = (mstype.float16, mstype.float32)


def _float_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise TypeError("For '%s', the '%s' must be a Tensor, but got %s." % (op, name, type(x).__name__))
    if x.dtype not in _FLOATS:
        raise TypeError("For '%s', the type of '%s' should be Tensor[Float16, Float32], but got Tensor[%s]."
                        % (op, name, x.dtype))
    return x


def _scalar(op, name, x):
    """A Number, or a float16 / float32 Tensor (a scalar, or per-row under vmap)."""
    if isinstance(x, bool) or not isinstance(x, (numbers.Number, Tensor)):
        raise TypeError("For '%s', the '%s' must be a Number or a Tensor, but got %s." % (op, name, type(x).__name__))
    if isinstance(x, Tensor):
        _float_tensor(op, name, x)
        return ops.stop_gradient(x)
    return x


def _parameters(op, **params):
    for name, p in params.items():
        if not U.is_parameter(p):
            raise TypeError("For '%s', the '%s' must be a Parameter, but got %s." % (op, name, type(p).__name__))
        _float_tensor(op, name, p)


@primitive
class ApplyGradientDescent(Primitive):
    """var -= alpha * delta."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, var, alpha, delta):
        op = "ApplyGradientDescent"
        _float_tensor(op, "var", var)
        alpha = _scalar(op, "alpha", alpha)
        _float_tensor(op, "delta", delta)
        return U.write_parameter(op, var, ops.stop_gradient(var) - ops.stop_gradient(delta) * alpha)


@primitive
class ApplyAdagrad(Primitive):
    """accum += grad * grad (when update_slots); var -= lr * grad / sqrt(accum). Returns
    (var, accum)."""

    @prim_attr_register
    def __init__(self, update_slots=True):
        U.check_bool("ApplyAdagrad", "update_slots", update_slots)

    def __call__(self, var, accum, lr, grad):
        op = "ApplyAdagrad"
        _parameters(op, var=var, accum=accum)
        lr = _scalar(op, "lr", lr)
        g = ops.stop_gradient(_float_tensor(op, "grad", grad))
        new_accum = ops.stop_gradient(accum) + g * g if self.update_slots else ops.stop_gradient(accum)
        new_var = ops.stop_gradient(var) - lr * g / ops.sqrt(new_accum)
        new_accum = U.write_parameter(op, accum, new_accum)
        return U.write_parameter(op, var, new_var), new_accum


@primitive
class ApplyFtrl(Primitive):
    """The FTRL-proximal update: accum_new = accum + grad^2; linear += grad - (accum_new^-p -
    accum^-p) / lr * var (p = lr_power); var = (sign(linear) * l1 - linear) / (accum_new^-p / lr
    + 2 * l2) where |linear| > l1, else 0. Returns var."""

    @prim_attr_register
    def __init__(self, use_locking=False):
        U.check_bool("ApplyFtrl", "use_locking", use_locking)

    def __call__(self, var, accum, linear, grad, lr, l1, l2, lr_power):
        op = "ApplyFtrl"
        _parameters(op, var=var, accum=accum, linear=linear)
        g = ops.stop_gradient(_float_tensor(op, "grad", grad))
        lr, l1, l2, lr_power = (_scalar(op, n, v) for n, v in
                                (("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power)))
        old_accum = ops.stop_gradient(accum)
        new_accum = old_accum + g * g
        new_power = ops.pow(new_accum, -lr_power)
        sigma = (new_power - ops.pow(old_accum, -lr_power)) / lr
        new_linear = ops.stop_gradient(linear) + g - sigma * ops.stop_gradient(var)
        quadratic = new_power / lr + 2 * l2
        shrunk = (ops.sign(new_linear) * l1 - new_linear) / quadratic
        new_var = ops.select(ops.abs(new_linear) > l1, shrunk, ops.zeros_like(shrunk))
        U.write_parameter(op, accum, new_accum)
        U.write_parameter(op, linear, new_linear)
        return U.write_parameter(op, var, new_var)

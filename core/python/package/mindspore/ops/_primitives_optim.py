"""The optimizer update primitives of mindspore.ops / P (ApplyGradientDescent,
ApplyProximalGradientDescent, ApplyAdagrad, ApplyAdagradV2, ApplyProximalAdagrad,
ApplyAdadelta, ApplyAdaMax, ApplyFtrl): each writes the new values into its Parameters in
place, as MindSpore's kernels do, and returns them. Inputs are checked as MindSpore's infer
functions check them: the Parameters and the gradient are float16 / float32 Tensors, the
scalars (lr, alpha, l1, ...) a Number or a Tensor of the same float types."""
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
        _float_tensor(op, name, U.check_parameter(op, name, p))


@primitive
class ApplyGradientDescent(Primitive):
    """var -= alpha * delta."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, var, alpha, delta):
        op = "ApplyGradientDescent"
        _parameters(op, var=var)
        alpha = _scalar(op, "alpha", alpha)
        _float_tensor(op, "delta", delta)
        return U.write_parameter(op, var, ops.stop_gradient(var) - ops.stop_gradient(delta) * alpha)


def _adagrad_step(op, var, accum, lr, grad, update_slots, epsilon=None):
    """ApplyAdagrad's update, and V2's with epsilon added to the root."""
    _parameters(op, var=var, accum=accum)
    lr = _scalar(op, "lr", lr)
    g = ops.stop_gradient(_float_tensor(op, "grad", grad))
    new_accum = ops.stop_gradient(accum) + g * g if update_slots else ops.stop_gradient(accum)
    root = ops.sqrt(new_accum) if epsilon is None else ops.sqrt(new_accum) + epsilon
    new_var = ops.stop_gradient(var) - lr * g / root
    new_accum = U.write_parameter(op, accum, new_accum)
    return U.write_parameter(op, var, new_var), new_accum


@primitive
class ApplyAdagrad(Primitive):
    """accum += grad * grad (when update_slots); var -= lr * grad / sqrt(accum). Returns
    (var, accum)."""

    @prim_attr_register
    def __init__(self, update_slots=True):
        U.check_bool("ApplyAdagrad", "update_slots", update_slots)

    def __call__(self, var, accum, lr, grad):
        return _adagrad_step("ApplyAdagrad", var, accum, lr, grad, self.update_slots)


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


@primitive
class ApplyProximalGradientDescent(Primitive):
    """prox = var - alpha * delta; var = sign(prox) / (1 + alpha * l2) * max(|prox| - alpha * l1, 0)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, var, alpha, l1, l2, delta):
        op = "ApplyProximalGradientDescent"
        _parameters(op, var=var)
        alpha, l1, l2 = (_scalar(op, n, v) for n, v in (("alpha", alpha), ("l1", l1), ("l2", l2)))
        prox = ops.stop_gradient(var) - alpha * ops.stop_gradient(_float_tensor(op, "delta", delta))
        shrunk = ops.maximum(ops.abs(prox) - alpha * l1, ops.zeros_like(prox))
        return U.write_parameter(op, var, ops.sign(prox) / (1 + alpha * l2) * shrunk)


@primitive
class ApplyAdagradV2(Primitive):
    """ApplyAdagrad with epsilon outside the root: var -= lr * grad / (sqrt(accum) + epsilon).
    Returns (var, accum)."""

    @prim_attr_register
    def __init__(self, epsilon, update_slots=True):
        U.check_number("ApplyAdagradV2", "epsilon", epsilon)
        U.check_bool("ApplyAdagradV2", "update_slots", update_slots)

    def __call__(self, var, accum, lr, grad):
        return _adagrad_step("ApplyAdagradV2", var, accum, lr, grad, self.update_slots, self.epsilon)


@primitive
class ApplyAdadelta(Primitive):
    """accum = rho * accum + (1 - rho) * grad^2; update = sqrt(accum_update + epsilon) * grad /
    sqrt(accum + epsilon); accum_update = rho * accum_update + (1 - rho) * update^2;
    var -= lr * update. Returns (var, accum, accum_update)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, var, accum, accum_update, lr, rho, epsilon, grad):
        op = "ApplyAdadelta"
        _parameters(op, var=var, accum=accum, accum_update=accum_update)
        lr, rho, epsilon = (_scalar(op, n, v) for n, v in (("lr", lr), ("rho", rho), ("epsilon", epsilon)))
        g = ops.stop_gradient(_float_tensor(op, "grad", grad))
        new_accum = rho * ops.stop_gradient(accum) + (1 - rho) * g * g
        update = ops.sqrt(ops.stop_gradient(accum_update) + epsilon) * g / ops.sqrt(new_accum + epsilon)
        new_update = rho * ops.stop_gradient(accum_update) + (1 - rho) * update * update
        new_var = ops.stop_gradient(var) - lr * update
        new_accum = U.write_parameter(op, accum, new_accum)
        new_update = U.write_parameter(op, accum_update, new_update)
        return U.write_parameter(op, var, new_var), new_accum, new_update


@primitive
class ApplyAdaMax(Primitive):
    """m = beta1 * m + (1 - beta1) * grad; v = max(beta2 * v, |grad|);
    var -= lr / (1 - beta1_power) * m / (v + epsilon). Returns (var, m, v)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
        op = "ApplyAdaMax"
        _parameters(op, var=var, m=m, v=v)
        beta1_power, lr, beta1, beta2, epsilon = (
            _scalar(op, n, x) for n, x in (("beta1_power", beta1_power), ("lr", lr), ("beta1", beta1),
                                           ("beta2", beta2), ("epsilon", epsilon)))
        g = ops.stop_gradient(_float_tensor(op, "grad", grad))
        new_m = beta1 * ops.stop_gradient(m) + (1 - beta1) * g
        new_v = ops.maximum(beta2 * ops.stop_gradient(v), ops.abs(g))
        new_var = ops.stop_gradient(var) - lr / (1 - beta1_power) * new_m / (new_v + epsilon)
        new_m = U.write_parameter(op, m, new_m)
        new_v = U.write_parameter(op, v, new_v)
        return U.write_parameter(op, var, new_var), new_m, new_v


@primitive
class ApplyProximalAdagrad(Primitive):
    """accum += grad^2; prox = var - lr * grad / sqrt(accum); var = sign(prox) / (1 + lr * l2) *
    max(|prox| - lr * l1, 0). Returns (var, accum)."""

    @prim_attr_register
    def __init__(self, use_locking=False):
        U.check_bool("ApplyProximalAdagrad", "use_locking", use_locking)

    def __call__(self, var, accum, lr, l1, l2, grad):
        op = "ApplyProximalAdagrad"
        _parameters(op, var=var, accum=accum)
        lr, l1, l2 = (_scalar(op, n, v) for n, v in (("lr", lr), ("l1", l1), ("l2", l2)))
        g = ops.stop_gradient(_float_tensor(op, "grad", grad))
        new_accum = ops.stop_gradient(accum) + g * g
        prox = ops.stop_gradient(var) - lr * g / ops.sqrt(new_accum)
        shrunk = ops.maximum(ops.abs(prox) - lr * l1, ops.zeros_like(prox))
        new_accum = U.write_parameter(op, accum, new_accum)
        return U.write_parameter(op, var, ops.sign(prox) / (1 + lr * l2) * shrunk), new_accum

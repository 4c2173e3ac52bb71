"""ApplyRMSProp and ApplyCenteredRMSProp (mindspore.ops.operations), the updates nn.RMSProp names:

    mean_square = decay * mean_square + (1 - decay) * grad^2
    (centered) mean_gradient = decay * mean_gradient + (1 - decay) * grad
    moment = momentum * moment + lr * grad / sqrt(mean_square [- mean_gradient^2] + epsilon)
    var = var - moment

The state Parameters are written in place and the new var is returned, as MindSpore's kernels
do; nothing here is differentiated (the inputs are read through stop_gradient)."""
import numbers

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register


def _check_state(op, named):
    for name, p in named:
        U.check_parameter(op, name, p)


def _check_hyper(op, lr, decay, momentum, epsilon):
    if isinstance(lr, bool) or not isinstance(lr, (numbers.Number, Tensor)):
        raise TypeError("For '%s', the 'learning_rate' must be a Number or a Tensor, but got %s."
                        % (op, type(lr).__name__))
    for name, v in (("decay", decay), ("momentum", momentum), ("epsilon", epsilon)):
        if not isinstance(v, (float, Tensor)):
            raise TypeError("For '%s', the '%s' must be a float, but got %s." % (op, name, type(v).__name__))


def _step(op, var, moment, grad, lr, momentum, denominator, epsilon):
    lr = lr.astype(var.dtype) if isinstance(lr, Tensor) and lr.dtype != var.dtype else lr
    new_moment = ops.stop_gradient(moment) * momentum + lr * grad / ops.sqrt(denominator + epsilon)
    U.write_parameter(op, moment, new_moment)
    return U.write_parameter(op, var, ops.stop_gradient(var) - new_moment)


@primitive
class ApplyRMSProp(Primitive):
    @prim_attr_register
    def __init__(self, use_locking=False):
        U.check_bool("ApplyRMSProp", "use_locking", use_locking)

    def __call__(self, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon):
        _check_state("ApplyRMSProp", (("var", var), ("mean_square", mean_square), ("moment", moment)))
        _check_hyper("ApplyRMSProp", learning_rate, decay, momentum, epsilon)
        g = ops.stop_gradient(grad)
        ms = ops.stop_gradient(mean_square) * decay + g * g * (1.0 - decay)
        U.write_parameter("ApplyRMSProp", mean_square, ms)
        return _step("ApplyRMSProp", var, moment, g, learning_rate, momentum, ms, epsilon)


@primitive
class ApplyCenteredRMSProp(Primitive):
    @prim_attr_register
    def __init__(self, use_locking=False):
        U.check_bool("ApplyCenteredRMSProp", "use_locking", use_locking)

    def __call__(self, var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum, epsilon):
        _check_state("ApplyCenteredRMSProp", (("var", var), ("mean_gradient", mean_gradient),
                                              ("mean_square", mean_square), ("moment", moment)))
        _check_hyper("ApplyCenteredRMSProp", learning_rate, decay, momentum, epsilon)
        g = ops.stop_gradient(grad)
        mg = ops.stop_gradient(mean_gradient) * decay + g * (1.0 - decay)
        ms = ops.stop_gradient(mean_square) * decay + g * g * (1.0 - decay)
        U.write_parameter("ApplyCenteredRMSProp", mean_gradient, mg)
        U.write_parameter("ApplyCenteredRMSProp", mean_square, ms)
        return _step("ApplyCenteredRMSProp", var, moment, g, learning_rate, momentum, ms - mg * mg, epsilon)

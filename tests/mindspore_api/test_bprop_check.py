"""A Cell's user-defined bprop, checked as MindSpore checks it: set_context(check_bprop=True) makes
a wrong number of gradients or a gradient of another dtype a TypeError and one of another shape a
ValueError (core/python/bind/bprop_check.h); without it a gradient's dtype passes through as the
bprop gave it; a bprop that reads one of the Cell's Parameters is a RuntimeError either way."""
import numpy as np

from mindspore import Parameter, Tensor, context, nn, ops
from mindspore import dtype as mstype

from _check import close, raises

grad_all_sens = ops.GradOperation(get_all=True, sens_param=True)
x = Tensor(np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], np.float32))
sens = Tensor(np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 4.0]], np.float32))


class Fixed(nn.Cell):
    """construct doubles x; bprop returns a fixed gradient of the given array."""

    def __init__(self, grad):
        super().__init__()
        self.grad = Tensor(grad)

    def construct(self, a):
        return a * 2

    def bprop(self, a, out, dout):
        return (self.grad * 3,)


good = np.array([[1.1, 2.2, 3.3], [2.0, 3.0, 4.0]], np.float32)
assert context.get_context("check_bprop") is False

# Checked and right: the bprop's gradient is the gradient.
context.set_context(check_bprop=True)
assert context.get_context("check_bprop") is True
(g,) = grad_all_sens(Fixed(good))(x, sens)
assert g.dtype == mstype.float32
close(g, good * 3)

# Another shape: ValueError naming the net, the argument and both shapes.
raises(ValueError, grad_all_sens(Fixed(good[:, :2])), x, sens,
       match="For user defined method 'bprop' of net 'Fixed', the 0th return value(gradient of the 0th "
             "argument) should have the same shape as the 0th argument, which is:(2, 3), but got: (2, 2).")
# Another dtype: TypeError.
raises(TypeError, grad_all_sens(Fixed(good.astype(np.float16))), x, sens,
       match="should have the same dtype as the 0th argument, which is:Float32, but got: Float16.")


class TwoInputs(nn.Cell):
    def construct(self, a, b):
        return a * 2 + b

    def bprop(self, a, b, out, dout):
        return (dout,)


# One gradient for two inputs: TypeError with both counts.
raises(TypeError, grad_all_sens(TwoInputs()), x, x, sens,
       match="For user defined method 'bprop' of net 'TwoInputs', the number of return values(gradients) "
             "should be equal to the number of input arguments except 'out' and 'dout', which is: 2, but got:1.")


class NotATensor(nn.Cell):
    def construct(self, a):
        return a * 2

    def bprop(self, a, out, dout):
        return (2,)


raises(TypeError, grad_all_sens(NotATensor()), x, sens,
       match="the 0th return value(gradient of the 0th argument) should be Tensor, but got int")

# Unchecked: a float16 gradient for a float32 input comes back as float16, values as given.
context.set_context(check_bprop=False)
(g16,) = grad_all_sens(Fixed(good.astype(np.float16)))(x, sens)
assert g16.dtype == mstype.float16, g16.dtype
close(g16.asnumpy().astype(np.float32), (good.astype(np.float16) * 3).astype(np.float32))


class UsesParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.par = Parameter(Tensor(good), name="par")

    def construct(self, a):
        return a * 2 + self.par

    def bprop(self, a, out, dout):
        return dout + self.par


for check in (True, False):
    context.set_context(check_bprop=check)
    raises(RuntimeError, grad_all_sens(UsesParameter()), x, sens,
           match="The user defined 'bprop' function does not support using Parameter.")
context.set_context(check_bprop=False)
# The forward alone is fine (MindSpore refuses the bprop only when a gradient needs it).
close(UsesParameter()(x), x.asnumpy() * 2 + good)

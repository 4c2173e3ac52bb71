"""mindspore.ops.InsertGradientOf (also ops.operations.InsertGradientOf, P.InsertGradientOf).

op = InsertGradientOf(f); y = op(x) returns x unchanged; in backward the gradient reaching y goes
through f and f's result is x's gradient (clip it, record it, zero it ...). f may be a function,
a bound method (one that updates a Parameter: MindSpore's own example) or a Primitive. A number
f returns becomes a Tensor of the gradient's shape and dtype.

Built like HookBackward (_transforms_hook.py): a Cell with a bprop over the identity, which the
core records as one node and calls in backward. The InsertGradientOf object keeps the Cell alive.
"""
import numbers

import mindspore.nn as _nn
import mindspore.ops as _ops
from mindspore import Tensor

__all__ = ["InsertGradientOf"]


class _InsertGradientIdentity(_nn.Cell):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def construct(self, x):
        return x

    def bprop(self, x, out, dout):
        grad = self.f(dout)
        if isinstance(grad, numbers.Number) and not isinstance(grad, bool):
            grad = _ops.full_like(dout, grad)
        if not isinstance(grad, Tensor):
            raise TypeError("For 'InsertGradientOf', the function 'f' must return a Tensor or a number, but got %s."
                            % type(grad).__name__)
        return (grad,)


class InsertGradientOf:
    """The identity whose backward passes the gradient through f."""

    def __init__(self, f):
        if not callable(f):
            raise TypeError("For 'InsertGradientOf', 'f' must be a MindSpore function, but got %s."
                            % type(f).__name__)
        self.f = f
        self._identity = _InsertGradientIdentity(f)

    def __call__(self, input_x):
        if not isinstance(input_x, Tensor):
            return input_x
        return self._identity(input_x)

    def __repr__(self):
        return "Prim[InsertGradientOf]"


_ops.InsertGradientOf = InsertGradientOf
import mindspore.ops.operations as _operations  # noqa: E402

_operations.InsertGradientOf = InsertGradientOf

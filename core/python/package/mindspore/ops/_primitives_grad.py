"""Gradient primitives of mindspore.ops.operations._grad_ops that MindSpore's bprops call and its
op tests run directly: SigmoidGrad, TanhGrad, SqrtGrad, RsqrtGrad, ReluGrad, ReLU6Grad (the
input gradient from an activation's output or input and the incoming gradient),
SigmoidCrossEntropyWithLogitsGrad (the logits' gradient of that loss), SliceGrad and
StridedSliceGrad (the incoming gradient placed at the sliced positions of a zero tensor).

Each is a composition of registry ops, so it is differentiable again. They are names of
_grad_ops only, as in MindSpore (not of mindspore.ops or P)."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops.operations import _grad_ops
from mindspore.ops.primitive import Primitive, prim_attr_register


def _grad_op(cls):
    setattr(_grad_ops, cls.__name__, cls)
    return cls


def _pair(op, a, b, a_name, b_name):
    U.check_tensor(op, a_name, a)
    U.check_tensor(op, b_name, b)
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError("For '%s', the shape of '%s' must be the same as '%s' %s, but got %s."
                         % (op, b_name, a_name, tuple(a.shape), tuple(b.shape)))


def _elementwise(name, formula, first, doc):
    """A primitive of two same-shaped inputs (first, dy) -> formula(first, dy)."""

    def __init__(self):
        Primitive.__init__(self, name)

    def __call__(self, a, dy):
        _pair(name, a, dy, first, "dy")
        return formula(a, dy)

    return _grad_op(type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc}))


_elementwise("SigmoidGrad", lambda y, dy: dy * y * (1 - y), "y", "dy * y * (1 - y), y = sigmoid(x).")
_elementwise("TanhGrad", lambda y, dy: dy * (1 - y * y), "y", "dy * (1 - y^2), y = tanh(x).")
_elementwise("SqrtGrad", lambda y, dy: dy / (2 * y), "y", "dy / (2 y), y = sqrt(x).")
_elementwise("RsqrtGrad", lambda y, dy: dy * y * y * y * -0.5, "y", "-dy y^3 / 2, y = 1 / sqrt(x).")


@_grad_op
class ReluGrad(Primitive):
    """dy where x > 0, else 0 (x: the input or output of ReLU)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, y_backprop, x):
        _pair("ReluGrad", x, y_backprop, "x", "y_backprop")
        return ops.select(x > 0, y_backprop, ops.zeros_like(y_backprop))


@_grad_op
class ReLU6Grad(Primitive):
    """dy where 0 < x <= 6, else 0: at x = 6 ReLU6 passes the gradient (MindSpore's kernel)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, y_grad, x):
        _pair("ReLU6Grad", x, y_grad, "x", "y_grad")
        inside = ops.logical_and(x > 0, x <= 6)
        return ops.select(inside, y_grad, ops.zeros_like(y_grad))


@_grad_op
class SigmoidCrossEntropyWithLogitsGrad(Primitive):
    """dout * (sigmoid(logits) - labels): the gradient of SigmoidCrossEntropyWithLogits for the logits."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, logits, labels, dout):
        op = "SigmoidCrossEntropyWithLogitsGrad"
        _pair(op, logits, labels, "logits", "labels")
        _pair(op, logits, dout, "logits", "dout")
        return dout * (ops.sigmoid(logits) - labels)


def _place(dy, shape, picked):
    """A tensor of `shape` holding dy at the flat positions `picked` (dy's order) and 0 elsewhere;
    a gather from dy with one zero appended, so any dtype works and the result is differentiable."""
    n = int(np.prod(shape, dtype=np.int64))
    source = np.full(n, picked.size, np.int64)
    source[picked.reshape(-1)] = np.arange(picked.size)
    flat = ops.reshape(dy, (-1,))
    padded = ops.concat((flat, ops.zeros((1,), dy.dtype)))
    return ops.reshape(ops.gather(padded, U.const(source, mstype.int64), 0), tuple(shape))


def _ints(op, name, values):
    return U.shape_tuple(op, values, name)


def _slice_index(begin, size):
    return tuple(slice(b, None if z == -1 else b + z) for b, z in zip(begin, size))


def _strided_index(begin, end, strides, masks):
    """StridedSlice's selection as a NumPy index: bit i of a mask applies to begin[i] / end[i]."""
    begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask = masks
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(np.newaxis)
        elif shrink_axis_mask & bit:
            index.append(b)
        else:
            index.append(slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    return tuple(index)


def _positions(shape, index):
    """The flat positions of a tensor of `shape` that the NumPy index selects, known while a
    graph-mode function compiles (they depend on shapes and constants only)."""
    n = int(np.prod(shape, dtype=np.int64))
    return np.arange(n, dtype=np.int64).reshape(shape)[index]


@_grad_op
class SliceGrad(Primitive):
    """The gradient of Slice(x, begin, size): dy inside the slice, 0 outside."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, dy, x, begin, size):
        U.check_tensor("SliceGrad", "dy", dy)
        U.check_tensor("SliceGrad", "x", x)
        picked = _positions(tuple(x.shape), _slice_index(_ints("SliceGrad", "begin", begin),
                                                          _ints("SliceGrad", "size", size)))
        if picked.shape != tuple(dy.shape):
            raise ValueError("For 'SliceGrad', the shape of 'dy' must be %s, but got %s."
                             % (picked.shape, tuple(dy.shape)))
        return _place(dy, tuple(x.shape), picked)


@_grad_op
class StridedSliceGrad(Primitive):
    """The gradient of StridedSlice with the same masks: dy at the selected positions of a
    tensor of shape `shapex`, 0 elsewhere."""

    @prim_attr_register
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        for name in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"):
            U.check_int("StridedSliceGrad", name, getattr(self, name), 0)

    def __call__(self, dy, shapex, begin, end, strides):
        U.check_tensor("StridedSliceGrad", "dy", dy)
        shape = U.shape_tuple("StridedSliceGrad", shapex, "shapex")
        masks = (self.begin_mask, self.end_mask, self.ellipsis_mask, self.new_axis_mask, self.shrink_axis_mask)
        index = _strided_index(_ints("StridedSliceGrad", "begin", begin), _ints("StridedSliceGrad", "end", end),
                               _ints("StridedSliceGrad", "strides", strides), masks)
        picked = _positions(shape, index)
        if picked.size != int(np.prod(dy.shape, dtype=np.int64)):
            raise ValueError("For 'StridedSliceGrad', the shape of 'dy' must be %s, but got %s."
                             % (picked.shape, tuple(dy.shape)))
        return _place(dy, shape, picked)

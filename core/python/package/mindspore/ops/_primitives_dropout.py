"""Dropout2D and Dropout3D, the channel-wise dropout primitives of mindspore.ops: each (sample,
channel) plane is kept with probability keep_prob (scaled by 1 / keep_prob) or zeroed; the call
returns (output, mask), the mask Bool and of the input's shape, as MindSpore's. Composed over
ops.dropout on one value per plane, so the global seed drives it and the gradient is dy * mask /
keep_prob."""
import mindspore.ops as ops
import mindspore.ops._functional_nn  # noqa: F401  (ops.dropout)
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _check_keep_prob(op, keep_prob):
    if isinstance(keep_prob, bool) or not isinstance(keep_prob, float):
        raise TypeError("For '%s', the type of 'keep_prob' must be float, but got %s."
                        % (op, type(keep_prob).__name__))
    if not 0.0 <= keep_prob <= 1.0:
        raise ValueError("For '%s', the 'keep_prob' must be in range [0.0, 1.0], but got %s." % (op, keep_prob))


def _channel_dropout(op, rank, keep_prob, x):
    U.check_tensor(op, "x", x)
    if x.ndim != rank:
        raise ValueError("For '%s', the dimension of 'x' must be %d, but got %d (shape %s)."
                         % (op, rank, x.ndim, list(x.shape)))
    if x.dtype not in _FLOATS:
        raise TypeError("For '%s', the type of 'x' must be float16, float32 or float64, but got %s."
                        % (op, x.dtype))
    planes = tuple(x.shape[:2]) + (1,) * (rank - 2)
    if keep_prob == 0.0:
        return x * 0, ops.zeros(tuple(x.shape), mstype.bool_)
    scale = ops.dropout(ops.ones(planes, mstype.float32), p=1.0 - keep_prob, training=True)
    scale = ops.stop_gradient(ops.broadcast_to(scale, tuple(x.shape)))
    return x * scale.astype(x.dtype), scale != 0


@primitive
class Dropout2D(Primitive):
    """Zeroes whole channels of an (N, C, H, W) input; returns (output, mask)."""

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        _check_keep_prob("Dropout2D", keep_prob)

    def __call__(self, x):
        return _channel_dropout("Dropout2D", 4, self.keep_prob, x)


@primitive
class Dropout3D(Primitive):
    """Zeroes whole channels of an (N, C, D, H, W) input; returns (output, mask)."""

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        _check_keep_prob("Dropout3D", keep_prob)

    def __call__(self, x):
        return _channel_dropout("Dropout3D", 5, self.keep_prob, x)

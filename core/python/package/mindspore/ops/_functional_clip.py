"""clip_by_value, clamp and clip over a list or tuple of Tensors as well as one Tensor (each element
clipped by the core op; the same kind of sequence comes back), and check_valid (CheckValid's box
test). A single Tensor goes straight to the core op."""
import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"
_core = {name: getattr(ops, name) for name in ("clip_by_value", "clamp", "clip")}


def _over_sequence(name, arg, x, low, high):
    if isinstance(x, (list, tuple)):
        if low is None and high is None:
            raise ValueError("For '%s', at least one of the minimum and maximum values must not be None." % name)
        out = []
        for i, item in enumerate(x):
            if not isinstance(item, Tensor):
                raise TypeError("For '%s', the '%s' must be a Tensor or a list or tuple of Tensors, but element "
                                "%d is %s." % (name, arg, i, type(item).__name__))
            out.append(_core[name](item, low, high))
        return type(x)(out)
    return _core[name](x, low, high)


@export(_F, force=True)
def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    return _over_sequence("clip_by_value", "x", x, clip_value_min, clip_value_max)


@export(_F, force=True)
def clamp(input, min=None, max=None):
    return _over_sequence("clamp", "input", input, min, max)


@export(_F, force=True)
def clip(input, min=None, max=None):
    return _over_sequence("clip", "input", input, min, max)


for _f in (clip_by_value, clamp, clip):
    _f.__doc__ = ("%s of a Tensor, or of each Tensor of a list or tuple (returning the same kind of sequence)."
                  % _f.__name__)


@export(_F)
def check_valid(bboxes, img_metas):
    """(N,) bool: box (x0, y0, x1, y1) is valid when x0 >= 0, y0 >= 0, x1 <= width * ratio - 1 and
    y1 <= height * ratio - 1, with img_metas = (height, width, ratio)."""
    op = "CheckValid"
    for name, value in (("bboxes", bboxes), ("img_metas", img_metas)):
        U.check_tensor(op, name, value)
        if value.dtype not in (mstype.float16, mstype.float32, mstype.int16, mstype.uint8):
            raise TypeError("For '%s', the dtype of '%s' must be float16, float32, int16 or uint8, but got %s."
                            % (op, name, value.dtype))
    if bboxes.ndim != 2 or bboxes.shape[1] != 4:
        raise ValueError("For '%s', the 'bboxes' must have shape (N, 4), but got %s." % (op, tuple(bboxes.shape)))
    if img_metas.shape != (3,):
        raise ValueError("For '%s', the 'img_metas' must have shape (3,), but got %s." % (op, tuple(img_metas.shape)))
    b = bboxes.astype(mstype.float32)
    m = img_metas.astype(mstype.float32)
    right = m[1] * m[2] - 1.0
    bottom = m[0] * m[2] - 1.0
    x0, y0, x1, y1 = ops.unstack(b, -1)
    return ops.logical_and(ops.logical_and(x0 >= 0.0, y0 >= 0.0), ops.logical_and(x1 <= right, y1 <= bottom))

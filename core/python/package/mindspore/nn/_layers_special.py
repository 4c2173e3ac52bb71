"""nn.math Cells of MindSpore 2.2 over the special and linear-algebra functions of mindspore.ops:
LGamma, DiGamma, IGamma, LBeta, MatInverse and MatDet."""
import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype

__all__ = ["LGamma", "DiGamma", "IGamma", "LBeta", "MatInverse", "MatDet"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _float_tensor(who, name, x):
    if not isinstance(x, Tensor):
        raise TypeError("For '%s', the '%s' must be a Tensor, but got %s." % (who, name, type(x).__name__))
    if x.dtype not in _FLOATS:
        raise TypeError("For '%s', the dtype of '%s' must be float16, float32 or float64, but got %s."
                        % (who, name, x.dtype))
    return x


class LGamma(_nn.Cell):
    """log |Gamma(x)| elementwise."""

    def construct(self, x):
        return ops.lgamma(_float_tensor("LGamma", "x", x))


class DiGamma(_nn.Cell):
    """The digamma function d/dx log Gamma(x) elementwise."""

    def construct(self, x):
        return ops.digamma(_float_tensor("DiGamma", "x", x))


class IGamma(_nn.Cell):
    """The regularized lower incomplete gamma function P(a, x), broadcasting a and x."""

    def construct(self, a, x):
        _float_tensor("IGamma", "a", a)
        _float_tensor("IGamma", "x", x)
        return ops.igamma(a, x)


class LBeta(_nn.Cell):
    """log |B(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y), broadcasting x and y."""

    def construct(self, x, y):
        _float_tensor("LBeta", "x", x)
        _float_tensor("LBeta", "y", y)
        return ops.lgamma(x) + ops.lgamma(y) - ops.lgamma(x + y)


def _square(who, a):
    _float_tensor(who, "a", a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("For '%s', the input must be a (batch of) square matrices, but got shape %s."
                         % (who, tuple(a.shape)))
    return a


class MatInverse(_nn.Cell):
    """The inverse of each (positive-definite) square matrix of a."""

    def construct(self, a):
        return ops.inverse(_square("MatInverse", a))


class MatDet(_nn.Cell):
    """The determinant of each (positive-definite) square matrix of a."""

    def construct(self, a):
        return ops.det(_square("MatDet", a))


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

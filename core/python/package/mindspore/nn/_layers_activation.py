"""Activation Cells MindSpore 2.2 has beyond the C++ ones (ReLU, Sigmoid, Tanh, Softmax), composed
from mindspore.ops so autodiff differentiates them, and nn.get_activation.

Also gives nn.Softmax MindSpore's `softmax` attribute (the ops.Softmax primitive it applies).
"""
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer

__all__ = ["GELU", "FastGelu", "SiLU", "LeakyReLU", "ELU", "PReLU", "ReLU6", "HSwish", "HSigmoid",
           "Softplus", "Softsign", "LogSoftmax", "Mish", "Hardtanh", "LogSigmoid", "SeLU", "CELU",
           "Softmin", "Tanhshrink", "SoftShrink", "HShrink", "Threshold", "GLU", "get_activation"]


def _check_number(who, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("For '%s', the type of '%s' must be float, but got %s."
                        % (who, name, type(value).__name__))
    return float(value)


def _check_axis(who, axis):
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError("For '%s', the type of 'axis' must be int, but got %s."
                        % (who, type(axis).__name__))
    return axis


def _relu6(x):
    return ops.minimum(ops.relu(x), 6.0)


class GELU(_nn.Cell):
    """x * P(X <= x) for a standard normal X; approximate=True uses the tanh form."""

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError("For 'GELU', the type of 'approximate' must be bool, but got %s."
                            % type(approximate).__name__)
        self.approximate = "tanh" if approximate else "none"

    def construct(self, x):
        return ops.gelu(x, approximate=self.approximate)


class FastGelu(_nn.Cell):
    """x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))."""

    def construct(self, x):
        ax = ops.abs(x)
        return x / (1.0 + ops.exp(-1.702 * ax)) * ops.exp(0.851 * (x - ax))


class SiLU(_nn.Cell):
    """x * sigmoid(x)."""

    def construct(self, x):
        return ops.silu(x)


class LeakyReLU(_nn.Cell):
    """max(alpha * x, x) (alpha <= 1), min(alpha * x, x) otherwise."""

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = _check_number("LeakyReLU", "alpha", alpha)

    def construct(self, x):
        if self.alpha <= 1.0:
            return ops.maximum(self.alpha * x, x)
        return ops.minimum(self.alpha * x, x)


class ELU(_nn.Cell):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _check_number("ELU", "alpha", alpha)
        if self.alpha != 1.0:
            raise ValueError("For 'ELU', the 'alpha' only supports 1.0 now, but got %s." % alpha)

    def construct(self, x):
        return ops.relu(x) + self.alpha * (ops.exp(ops.minimum(x, 0.0)) - 1.0)


class CELU(_nn.Cell):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _check_number("CELU", "alpha", alpha)
        if self.alpha == 0.0:
            raise ValueError("For 'CELU', the 'alpha' can not be equal to 0, but got %s." % alpha)

    def construct(self, x):
        neg = self.alpha * (ops.exp(ops.minimum(x, 0.0) / self.alpha) - 1.0)
        return ops.relu(x) + ops.minimum(neg, 0.0)


class SeLU(_nn.Cell):
    """scale * (max(0, x) + min(0, alpha * (exp(x) - 1))) with MindSpore's constants."""

    def construct(self, x):
        alpha = 1.67326324235437728481704299
        scale = 1.05070098735548049341933498
        return scale * (ops.relu(x) + alpha * (ops.exp(ops.minimum(x, 0.0)) - 1.0))


class ReLU6(_nn.Cell):
    """min(max(0, x), 6)."""

    def construct(self, x):
        return _relu6(x)


class HSwish(_nn.Cell):
    """x * relu6(x + 3) / 6."""

    def construct(self, x):
        return x * _relu6(x + 3.0) / 6.0


class HSigmoid(_nn.Cell):
    """relu6(x + 3) / 6."""

    def construct(self, x):
        return _relu6(x + 3.0) / 6.0


class Softplus(_nn.Cell):
    """log(1 + exp(beta * x)) / beta, x itself where beta * x > threshold."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = _check_number("Softplus", "beta", beta)
        self.threshold = _check_number("Softplus", "threshold", threshold)
        if self.beta == 0.0:
            raise ValueError("For 'Softplus', the 'beta' can not be 0.")

    def construct(self, x):
        scaled = self.beta * x
        soft = ops.softplus(ops.minimum(scaled, self.threshold)) / self.beta
        return ops.where(scaled > self.threshold, x, soft)


class Softsign(_nn.Cell):
    """x / (1 + |x|)."""

    def construct(self, x):
        return x / (1.0 + ops.abs(x))


class LogSoftmax(_nn.Cell):
    """log(softmax(x)) along axis."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _check_axis("LogSoftmax", axis)

    def construct(self, x):
        return ops.log_softmax(x, self.axis)


class Softmin(_nn.Cell):
    """softmax(-x) along axis."""

    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, (list, tuple)):
            for a in axis:
                _check_axis("Softmin", a)
        else:
            _check_axis("Softmin", axis)
        self.axis = axis

    def construct(self, x):
        return ops.softmax(-x, self.axis)


class Mish(_nn.Cell):
    """x * tanh(softplus(x))."""

    def construct(self, x):
        return x * ops.tanh(ops.softplus(x))


class Hardtanh(_nn.Cell):
    """x clamped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val = _check_number("Hardtanh", "min_val", min_val)
        self.max_val = _check_number("Hardtanh", "max_val", max_val)
        if self.min_val >= self.max_val:
            raise ValueError("For 'Hardtanh', the 'max_val' must be larger than 'min_val', but got "
                             "'min_val': %s, 'max_val': %s." % (min_val, max_val))

    def construct(self, x):
        return ops.minimum(ops.maximum(x, self.min_val), self.max_val)


class LogSigmoid(_nn.Cell):
    """log(sigmoid(x)) = -softplus(-x)."""

    def construct(self, x):
        return -ops.softplus(-x)


class Tanhshrink(_nn.Cell):
    """x - tanh(x)."""

    def construct(self, x):
        return x - ops.tanh(x)


class SoftShrink(_nn.Cell):
    """x - lambd for x > lambd, x + lambd for x < -lambd, 0 otherwise."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _check_number("SoftShrink", "lambd", lambd)
        if self.lambd < 0:
            raise ValueError("For 'SoftShrink', the 'lambd' must be no less than 0, but got %s."
                             % lambd)

    def construct(self, x):
        return ops.relu(x - self.lambd) - ops.relu(-x - self.lambd)


class HShrink(_nn.Cell):
    """x where |x| > lambd, 0 otherwise."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _check_number("HShrink", "lambd", lambd)

    def construct(self, x):
        return ops.where(ops.abs(x) > self.lambd, x, ops.zeros_like(x))


class Threshold(_nn.Cell):
    """x where x > threshold, value otherwise."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = _check_number("Threshold", "threshold", threshold)
        self.value = _check_number("Threshold", "value", value)

    def construct(self, x):
        return ops.where(x > self.threshold, x, ops.zeros_like(x) + self.value)


class GLU(_nn.Cell):
    """a * sigmoid(b) for the two halves a, b of x along axis."""

    def __init__(self, axis=-1):
        super().__init__()
        self.dim = _check_axis("GLU", axis)

    def construct(self, x):
        size = x.shape[self.dim]
        if size % 2:
            raise ValueError("For 'GLU', the size of 'x' along axis %d must be even, but got %d."
                             % (self.dim, size))
        a, b = ops.split(x, size // 2, self.dim)
        return a * ops.sigmoid(b)


class PReLU(_nn.Cell):
    """x for x >= 0, w * x otherwise, with a learnt w per channel (axis 1)."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError("For 'PReLU', the 'channel' must be a positive int, but got %s."
                             % (channel,))
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            w = initializer(float(w), [channel], mstype.float32)
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError("For 'PReLU', the length of 'w' must be equal to the 'channel' "
                                 "when the 'w' is a list, but got the length of 'w': %d, the "
                                 "'channel': %d." % (len(w), channel))
            w = Tensor(w, mstype.float32)
        elif isinstance(w, Tensor):
            if tuple(w.shape) not in ((channel,), (1,)):
                raise ValueError("For 'PReLU', the shape of 'w' must be (%d,) or (1,), but got %s."
                                 % (channel, tuple(w.shape)))
        else:
            raise TypeError("For 'PReLU', the 'w' only supported float, list and Tensor, but got %s."
                            % type(w).__name__)
        self.channel = channel
        self.w = Parameter(w, name="a")

    def construct(self, x):
        w = self.w
        if x.ndim >= 2:
            w = ops.reshape(w, (1, -1) + (1,) * (x.ndim - 2))
        return ops.relu(x) - w * ops.relu(-x)


_ACTIVATIONS = {
    "softmin": Softmin,
    "softmax": _nn.Softmax,
    "logsoftmax": LogSoftmax,
    "relu": _nn.ReLU,
    "relu6": ReLU6,
    "silu": SiLU,
    "tanh": _nn.Tanh,
    "tanhshrink": Tanhshrink,
    "hardtanh": Hardtanh,
    "gelu": GELU,
    "fast_gelu": FastGelu,
    "elu": ELU,
    "sigmoid": _nn.Sigmoid,
    "softsign": Softsign,
    "prelu": PReLU,
    "leakyrelu": LeakyReLU,
    "hswish": HSwish,
    "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid,
    "softshrink": SoftShrink,
    "hshrink": HShrink,
    "mish": Mish,
    "selu": SeLU,
    "glu": GLU,
    "celu": CELU,
    "softplus": Softplus,
}


def get_activation(name, prim_name=None):
    """A new activation Cell for name ("relu", "gelu", ...); None for None."""
    prefix = "For '%s'," % prim_name if prim_name else "The"
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError("%s the type of 'name' must be str, but got %s."
                        % (prefix, type(name).__name__))
    if name not in _ACTIVATIONS:
        raise KeyError("%s 'name' must be in %s, but got %s."
                       % (prefix, list(_ACTIVATIONS.keys()), name))
    return _ACTIVATIONS[name]()


for _name in __all__:
    setattr(_nn, _name, globals()[_name])


def _softmax_primitive(self):
    prim = self.__dict__.get("_gradstep_softmax")
    if prim is None:
        axis = self.axis
        prim = ops.Softmax(axis)
        if not isinstance(prim.axis, tuple):
            prim.axis = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
        self.__dict__["_gradstep_softmax"] = prim
    return prim


_nn.Softmax.softmax = property(_softmax_primitive)

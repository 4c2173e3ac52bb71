"""The combined layers of MindSpore 2.2 (nn.layer.combined): Conv2dBnAct and DenseBnAct, a
convolution or Dense followed by an optional BatchNorm and an optional activation."""
import mindspore.nn as _nn
from mindspore.nn._layers_activation import get_activation

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _activation(who, activation, alpha):
    if activation is None:
        return None
    if isinstance(activation, str):
        if activation == "leakyrelu":
            return _nn.LeakyReLU(alpha)
        return get_activation(activation, who)
    if isinstance(activation, _nn.Cell):
        return activation
    raise TypeError("For '%s', the 'activation' must be str or Cell, but got %s." % (who, type(activation).__name__))


def _check_bool(who, name, value):
    if not isinstance(value, bool):
        raise TypeError("For '%s', the type of '%s' must be bool, but got %s." % (who, name, type(value).__name__))
    return value


class Conv2dBnAct(_nn.Cell):
    """Conv2d, then BatchNorm2d (has_bn) and the activation (a name or a Cell; 'leakyrelu' takes
    alpha). after_fake concerns quantization-aware training, which gradstep does not do."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros", has_bn=False, momentum=0.997,
                 eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        who = "Conv2dBnAct"
        self.conv = _nn.Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                               padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                               weight_init=weight_init, bias_init=bias_init)
        self.has_bn = _check_bool(who, "has_bn", has_bn)
        self.has_act = activation is not None
        self.after_fake = _check_bool(who, "after_fake", after_fake)
        if has_bn:
            self.batchnorm = _nn.BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation(who, activation, alpha)

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class DenseBnAct(_nn.Cell):
    """Dense, then BatchNorm1d (has_bn) and the activation (a name or a Cell; 'leakyrelu' takes
    alpha)."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 has_bn=False, momentum=0.9, eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        who = "DenseBnAct"
        self.dense = _nn.Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = _check_bool(who, "has_bn", has_bn)
        self.has_act = activation is not None
        self.after_fake = _check_bool(who, "after_fake", after_fake)
        if has_bn:
            self.batchnorm = _nn.BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation(who, activation, alpha)

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

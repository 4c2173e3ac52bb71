"""Conv3dTranspose of MindSpore 2.2: the transpose of Conv3d (the gradient of a 3-D convolution
with respect to its input) by the n-dimensional transposed convolution of
ops/_functional_image.py, so gradients reach the input, weight and bias."""
import math

import mindspore.nn as _nn
import mindspore.ops._functional_image as _I
from mindspore import Parameter, ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Uniform, initializer
from mindspore.nn._layers_conv import transposed_crops

__all__ = ["Conv3dTranspose"]


def _triple(who, name, value, minimum=1):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if not (isinstance(value, tuple) and len(value) == 3 and all(
            isinstance(v, int) and not isinstance(v, bool) and v >= minimum for v in value)):
        raise ValueError("For '%s', the '%s' must be an int or a tuple of three ints no less than %d, but got %s."
                         % (who, name, minimum, value))
    return value


class Conv3dTranspose(_nn.Cell):
    """The 3-D transposed convolution of (N, C_in, D, H, W) input; weight (in_channels,
    out_channels / group, kD, kH, kW); padding an int or (head, tail, top, bottom, left, right)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, output_padding=0, has_bias=False, weight_init=None, bias_init=None,
                 data_format="NCDHW", dtype=mstype.float32):
        super().__init__()
        who = "Conv3dTranspose"
        for name, value in (("in_channels", in_channels), ("out_channels", out_channels), ("group", group)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError("For '%s', the '%s' must be a positive int, but got %s." % (who, name, value))
        if in_channels % group or out_channels % group:
            raise ValueError("For '%s', the 'in_channels' (%d) and 'out_channels' (%d) must be divisible by "
                             "'group' (%d)." % (who, in_channels, out_channels, group))
        if data_format != "NCDHW":
            raise ValueError("For '%s', the 'data_format' must be 'NCDHW', but got %s." % (who, data_format))
        self.in_channels, self.out_channels, self.group = in_channels, out_channels, group
        self.kernel_size = _triple(who, "kernel_size", kernel_size)
        self.stride = _triple(who, "stride", stride)
        self.dilation = _triple(who, "dilation", dilation)
        self.output_padding = output_padding
        self._out_pad = _triple(who, "output_padding", output_padding, 0)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError("For '%s', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got %s."
                             % (who, pad_mode))
        self.pad_mode = pad_mode.lower()
        if isinstance(padding, int) and not isinstance(padding, bool):
            pads = (padding,) * 6
        elif isinstance(padding, tuple) and len(padding) == 6:
            pads = padding
        else:
            raise TypeError("For '%s', the 'padding' must be an int or a tuple of six ints, but got %s."
                            % (who, padding))
        if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in pads):
            raise ValueError("For '%s', the 'padding' must be non-negative, but got %s." % (who, padding))
        if any(pads) and self.pad_mode != "pad":
            raise ValueError("For '%s', the 'padding' must be zero when 'pad_mode' is not 'pad', but got %s."
                             % (who, padding))
        self.padding, self.data_format = padding, data_format
        self.__dict__["_pads"] = pads
        self.has_bias = has_bias
        fan = out_channels // group * int(math.prod(self.kernel_size))
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)) if weight_init is None else weight_init,
                                            (in_channels, out_channels // group) + self.kernel_size, dtype),
                                name="weight")
        if has_bias:
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan)) if bias_init is None else bias_init,
                                              (out_channels,), dtype), name="bias")
        else:
            self.bias = None


    def construct(self, x):
        if x.ndim != 5:
            raise ValueError("For 'Conv3dTranspose', the dimension of input must be 5, but got %d." % x.ndim)
        if x.shape[1] != self.in_channels:
            raise ValueError("For 'Conv3dTranspose', the input's channels must be %d, but got %d."
                             % (self.in_channels, x.shape[1]))
        pads, spatial = [], []
        for axis in range(3):
            before, after = transposed_crops(self, axis)
            k_eff = self.dilation[axis] * (self.kernel_size[axis] - 1) + 1
            full = (x.shape[2 + axis] - 1) * self.stride[axis] + k_eff
            pads.append((before, after))
            spatial.append(full - before - after + self._out_pad[axis])
        if min(spatial) < 1:
            raise ValueError("For 'Conv3dTranspose', the padding %s leaves no output for input shape %s."
                             % (self.padding, tuple(x.shape)))
        out = _I.conv_transpose_nd(x, ops.cast(self.weight, x.dtype), self.stride, self.dilation, self.group,
                                   pads, tuple(spatial))
        if self.bias is not None:
            out = out + ops.reshape(ops.cast(self.bias, x.dtype), (1, -1, 1, 1, 1))
        return out

    def extend_repr(self):
        return "input_channels={}, output_channels={}, kernel_size={}, stride={}, pad_mode={}, padding={}, " \
               "dilation={}, group={}, has_bias={}, weight_init={!r}, bias_init={!r}".format(
                   self.in_channels, self.out_channels, self.kernel_size, self.stride, self.pad_mode,
                   self.padding, self.dilation, self.group, self.has_bias, self.weight, self.bias)


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

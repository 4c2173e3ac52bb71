"""Conv2dTranspose and Conv1dTranspose composed from mindspore.ops (zero insertion, padding and a
conv2d with the flipped kernel), Conv3d (a sum of conv2d over the kernel's depth), and the attributes MindSpore documents on the C++ Conv2d
(in_channels, out_channels, kernel_size, stride, padding, dilation, group, has_bias, format)."""
import inspect
import math

import numpy as np

import mindspore.nn as _nn
import mindspore.ops._functional_image as I
from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Uniform, initializer

__all__ = ["Conv2dTranspose", "Conv1dTranspose", "Conv3d"]

_CConv2d = _nn.Conv2d


def _pair(who, name, value):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value, value)
    if not (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)):
        raise ValueError("For '%s', the '%s' must be a positive int or a tuple of two positive ints, "
                         "but got %s." % (who, name, value))
    return value


def _padding4(who, padding):
    if isinstance(padding, int) and not isinstance(padding, bool):
        if padding < 0:
            raise ValueError("For '%s', the 'padding' must be non-negative, but got %d." % (who, padding))
        return (padding,) * 4
    if isinstance(padding, tuple) and len(padding) == 4 and all(
            isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in padding):
        return padding
    raise TypeError("For '%s', the 'padding' must be a non-negative int or a tuple of four, but got %s."
                    % (who, padding))


def _insert_zeros(x, axis, stride):
    """(..., L, ...) -> (..., (L - 1) * stride + 1, ...) with stride - 1 zeros between elements."""
    if stride == 1:
        return x
    length = x.shape[axis]
    parts = [ops.expand_dims(x, axis + 1)]
    zero_shape = list(x.shape)
    zero_shape.insert(axis + 1, 1)
    zeros = ops.zeros(tuple(zero_shape), x.dtype)
    parts += [zeros] * (stride - 1)
    stacked = ops.concat(parts, axis + 1)
    shape = list(x.shape)
    shape[axis] = length * stride
    merged = ops.reshape(stacked, tuple(shape))
    index = [slice(None)] * x.ndim
    index[axis] = slice(0, (length - 1) * stride + 1)
    return merged[tuple(index)]


def _zero_pad(x, axis, before, after):
    parts = []
    for amount in (before, after):
        shape = list(x.shape)
        shape[axis] = amount
        parts.append(ops.zeros(tuple(shape), x.dtype) if amount else None)
    pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
    return ops.concat(pieces, axis) if len(pieces) > 1 else x



def transposed_crops(cell, axis):
    """(crop before, crop after) of a transposed convolution's full output along spatial axis
    `axis`, from the Cell's pad_mode, _pads, kernel_size, dilation and stride (2-D and 3-D alike)."""
    if cell.pad_mode == "pad":
        return cell._pads[2 * axis], cell._pads[2 * axis + 1]
    if cell.pad_mode == "same":
        k_eff = cell.dilation[axis] * (cell.kernel_size[axis] - 1) + 1
        total = max(k_eff - cell.stride[axis], 0)
        return total // 2, total - total // 2
    return 0, 0

class Conv2dTranspose(_nn.Cell):
    """The transpose of Conv2d (the gradient of a convolution with respect to its input) over
    NCHW input; weight shape (in_channels, out_channels / group, kH, kW)."""

    _who = "Conv2dTranspose"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 output_padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=mstype.float32):
        super().__init__()
        who = self._who
        for name, value in (("in_channels", in_channels), ("out_channels", out_channels),
                            ("group", group)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError("For '%s', the '%s' must be a positive int, but got %s."
                                 % (who, name, value))
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair(who, "kernel_size", kernel_size)
        self.stride = _pair(who, "stride", stride)
        self.dilation = _pair(who, "dilation", dilation)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError("For '%s', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got "
                             "%s." % (who, pad_mode))
        self.pad_mode = pad_mode.lower()
        self.padding = padding
        self._pads = _padding4(who, padding)
        if any(self._pads) and self.pad_mode != "pad":
            raise ValueError("For '%s', the 'padding' must be zero when 'pad_mode' is not 'pad', but "
                             "got %s." % (who, padding))
        self.output_padding = output_padding
        self._out_pad = (output_padding, output_padding) if isinstance(output_padding, int) \
            else tuple(output_padding)
        if group != 1:
            raise ValueError("For '%s', only 'group' 1 is supported by gradstep, but got %d." % (who, group))
        self.group = group
        self.has_bias = has_bias
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        kh, kw = self.kernel_size
        self.weight = Parameter(initializer(weight_init, [in_channels, out_channels // group, kh, kw],
                                            mstype.float32), name="weight")
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(out_channels // group * kh * kw))
            self.bias = Parameter(initializer(bias_init, [out_channels], mstype.float32), name="bias")
        else:
            self.bias = None

    def _crops(self, size, axis):
        """(crop before, crop after) of the full transposed output along axis (0: H, 1: W)."""
        return transposed_crops(self, axis)

    def construct(self, x):
        if x.ndim != 4:
            raise ValueError("For '%s', the dimension of input must be 4, but got %d." % (self._who, x.ndim))
        if x.shape[1] != self.in_channels:
            raise ValueError("For '%s', the input's channels must be %d, but got %d."
                             % (self._who, self.in_channels, x.shape[1]))
        kh, kw = self.kernel_size
        # Conv2DBackpropInput with the crops as the convolution's paddings (output_padding taken
        # from the end one); the zero-stuffed convolution below when that does not apply.
        pads, size = [], []
        for axis, k in ((0, kh), (1, kw)):
            before, after = self._crops(x.shape[2 + axis], axis)
            full = (x.shape[2 + axis] - 1) * self.stride[axis] + self.dilation[axis] * (k - 1) + 1
            pads.append((before, after - self._out_pad[axis]))
            size.append(full - before - after + self._out_pad[axis])
        out = I._backprop_input_2d(x, self.weight, self.stride, self.dilation, 1, pads, size)
        if out is not None:
            return out + ops.reshape(self.bias, (1, -1, 1, 1)) if self.has_bias else out
        y = _insert_zeros(x, 2, self.stride[0])
        y = _insert_zeros(y, 3, self.stride[1])
        for axis, k in ((2, kh), (3, kw)):
            edge = self.dilation[axis - 2] * (k - 1)
            y = _zero_pad(y, axis, edge, edge)
        # (in, out, kh, kw) -> (out, in, kh, kw), flipped in both spatial axes.
        w = ops.transpose(self.weight, (1, 0, 2, 3))
        w = ops.gather(w, Tensor(np.arange(kh - 1, -1, -1, dtype=np.int32)), 2)
        w = ops.gather(w, Tensor(np.arange(kw - 1, -1, -1, dtype=np.int32)), 3)
        out = ops.conv2d(y, w, None, 1, "valid", 0, self.dilation, 1)
        index = [slice(None), slice(None)]
        for axis in (0, 1):
            before, after = self._crops(x.shape[2 + axis], axis)
            size = out.shape[2 + axis]
            index.append(slice(before, size - after + self._out_pad[axis]))
        out = out[tuple(index)]
        if self.has_bias:
            out = out + ops.reshape(self.bias, (1, -1, 1, 1))
        return out

    def extend_repr(self):
        return "input_channels={}, output_channels={}, kernel_size={}, stride={}, pad_mode={}, " \
               "padding={}, dilation={}, group={}, has_bias={}, weight_init={!r}, bias_init={!r}".format(
                   self.in_channels, self.out_channels, self.kernel_size, self.stride, self.pad_mode,
                   self.padding, self.dilation, self.group, self.has_bias, self.weight, self.bias)


class Conv1dTranspose(_nn.Cell):
    """The transpose of Conv1d over (N, C, L) input; weight shape (in_channels, out_channels, 1,
    kernel_size)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        super().__init__()
        if isinstance(padding, bool) or not isinstance(padding, int):
            raise TypeError("For 'Conv1dTranspose', the type of 'padding' must be int, but got %s."
                            % type(padding).__name__)
        inner = Conv2dTranspose(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                                (0, 0, padding, padding), 0, (1, dilation), group, has_bias,
                                weight_init, bias_init, dtype)
        inner._who = "Conv1dTranspose"
        self.__dict__["_inner"] = inner
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.pad_mode, self.padding, self.group, self.has_bias = pad_mode.lower(), padding, group, has_bias
        self.weight = inner.weight
        if has_bias:
            self.bias = inner.bias
        else:
            self.bias = None

    def construct(self, x):
        if x.ndim != 3:
            raise ValueError("For 'Conv1dTranspose', the dimension of input must be 3, but got %d."
                             % x.ndim)
        return ops.squeeze(self._inner(ops.expand_dims(x, 2)), 2)


def _triple(who, name, value):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if not (isinstance(value, tuple) and len(value) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)):
        raise ValueError("For '%s', the '%s' must be a positive int or a tuple of three positive ints, "
                         "but got %s." % (who, name, value))
    return value


class Conv3d(_nn.Cell):
    """3-D cross-correlation over (N, C, D, H, W) input; weight (out_channels, in_channels / group,
    kD, kH, kW); padding an int or (head, tail, top, bottom, left, right) with pad_mode 'pad'."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 data_format="NCDHW", dtype=mstype.float32):
        super().__init__()
        who = "Conv3d"
        for name, value in (("in_channels", in_channels), ("out_channels", out_channels),
                            ("group", group)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError("For '%s', the '%s' must be a positive int, but got %s."
                                 % (who, name, value))
        if in_channels % group or out_channels % group:
            raise ValueError("For 'Conv3d', the 'in_channels' and 'out_channels' must be divisible by "
                             "'group', but got %d, %d and %d." % (in_channels, out_channels, group))
        if data_format != "NCDHW":
            raise ValueError("For 'Conv3d', the 'data_format' must be 'NCDHW', but got %s." % (data_format,))
        self.in_channels, self.out_channels, self.group = in_channels, out_channels, group
        self.kernel_size = _triple(who, "kernel_size", kernel_size)
        self.stride = _triple(who, "stride", stride)
        self.dilation = _triple(who, "dilation", dilation)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError("For 'Conv3d', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but "
                             "got %s." % (pad_mode,))
        self.pad_mode = pad_mode.lower()
        if isinstance(padding, int) and not isinstance(padding, bool) and padding >= 0:
            pads = (padding,) * 6
        elif isinstance(padding, tuple) and len(padding) == 6 and all(
                isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in padding):
            pads = padding
        else:
            raise ValueError("For 'Conv3d', the 'padding' must be a non-negative int or a tuple of six, "
                             "but got %s." % (padding,))
        if any(pads) and self.pad_mode != "pad":
            raise ValueError("For 'Conv3d', the 'padding' must be zero when 'pad_mode' is not 'pad', "
                             "but got %s." % (padding,))
        self.padding = padding
        self._pads = pads
        self.has_bias = has_bias
        self.format = data_format
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        kd, kh, kw = self.kernel_size
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels // group, kd, kh, kw],
                                            mstype.float32), name="weight")
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels // group * kd * kh * kw))
            self.bias = Parameter(initializer(bias_init, [out_channels], mstype.float32), name="bias")
        else:
            self.bias = None

    def _padding_of(self, sizes):
        if self.pad_mode == "pad":
            return self._pads
        if self.pad_mode == "valid":
            return (0,) * 6
        out = []
        for size, k, s, d in zip(sizes, self.kernel_size, self.stride, self.dilation):
            target = -(-size // s)
            total = max((target - 1) * s + d * (k - 1) + 1 - size, 0)
            out += [total // 2, total - total // 2]
        return tuple(out)

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError("For 'Conv3d', the dimension of input must be 5, but got %d." % x.ndim)
        if x.shape[1] != self.in_channels:
            raise ValueError("For 'Conv3d', the input's channels must be %d, but got %d."
                             % (self.in_channels, x.shape[1]))
        pads = self._padding_of(tuple(x.shape[2:]))
        for axis in (2, 3, 4):
            x = _zero_pad(x, axis, pads[2 * (axis - 2)], pads[2 * (axis - 2) + 1])
        kd = self.kernel_size[0]
        sd, dd = self.stride[0], self.dilation[0]
        depth = (x.shape[2] - dd * (kd - 1) - 1) // sd + 1
        if depth < 1:
            raise ValueError("For 'Conv3d', the input's depth %d is smaller than the kernel's %d."
                             % (x.shape[2], dd * (kd - 1) + 1))
        # One conv2d over every output plane at once: the depth folded into the batch, the kernel's
        # depth into the channels. Slab k holds the planes od * sd + k * dd for all od; stacked per
        # group as (N, depth, G, kd, C/G, H, W) they meet the weight (O, C/G, kd, kh, kw) laid out
        # as (O, kd * C/G, kh, kw). A conv2d per output plane and kernel depth (here 48) on planes
        # cut one by one, each cut's gradient a zero-padded copy of the whole input, took 2.3x
        # PyTorch's time.
        n, c, g = x.shape[0], x.shape[1], self.group
        h, w = x.shape[3], x.shape[4]
        slabs = []
        for k in range(kd):
            slab = x[:, :, k * dd:k * dd + (depth - 1) * sd + 1:sd]
            slabs.append(ops.reshape(ops.transpose(slab, (0, 2, 1, 3, 4)), (n, depth, g, c // g, h, w)))
        planes = ops.reshape(ops.stack(slabs, 3), (n * depth, kd * c, h, w))
        weight = ops.transpose(self.weight, (0, 2, 1, 3, 4))
        weight = ops.reshape(weight, (weight.shape[0], kd * weight.shape[2]) + tuple(weight.shape[3:]))
        out = ops.conv2d(planes, weight, None, self.stride[1:], "valid", 0, self.dilation[1:], g)
        out = ops.transpose(ops.reshape(out, (n, depth) + tuple(out.shape[1:])), (0, 2, 1, 3, 4))
        if self.has_bias:
            out = out + ops.reshape(self.bias, (1, -1, 1, 1, 1))
        return out

    def extend_repr(self):
        return "input_channels={}, output_channels={}, kernel_size={}, stride={}, pad_mode={}, " \
               "padding={}, dilation={}, group={}, has_bias={}, weight_init={!r}, bias_init={!r}, " \
               "format={}".format(self.in_channels, self.out_channels, self.kernel_size, self.stride,
                                  self.pad_mode, self.padding, self.dilation, self.group, self.has_bias,
                                  self.weight, self.bias, self.format)


for _name in __all__:
    setattr(_nn, _name, globals()[_name])


# ---------------------------------------------------------------------------------------------
# Conv2d's attributes

_conv2d_init = _CConv2d.__init__
_conv2d_signature = inspect.Signature([
    inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + [
    inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
    for name, default in [("in_channels", inspect.Parameter.empty),
                          ("out_channels", inspect.Parameter.empty),
                          ("kernel_size", inspect.Parameter.empty), ("stride", 1),
                          ("pad_mode", "same"), ("padding", 0), ("dilation", 1), ("group", 1),
                          ("has_bias", False), ("weight_init", None), ("bias_init", None),
                          ("data_format", "NCHW"), ("dtype", None)]])


def _tuple2(value):
    return (value, value) if isinstance(value, int) and not isinstance(value, bool) else tuple(value) \
        if isinstance(value, (tuple, list)) else value


def _conv2d_wrapped_init(self, *args, **kwargs):
    _conv2d_init(self, *args, **kwargs)
    bound = _conv2d_signature.bind(self, *args, **kwargs)
    bound.apply_defaults()
    a = bound.arguments
    self.__dict__.update(in_channels=a["in_channels"], out_channels=a["out_channels"],
                         kernel_size=_tuple2(a["kernel_size"]), stride=_tuple2(a["stride"]),
                         padding=a["padding"], dilation=_tuple2(a["dilation"]), group=a["group"],
                         has_bias=a["has_bias"], format=a["data_format"], data_format=a["data_format"])
    if not a["has_bias"]:
        self.__dict__["bias"] = None


_conv2d_wrapped_init.__doc__ = _conv2d_init.__doc__
_CConv2d.__init__ = _conv2d_wrapped_init

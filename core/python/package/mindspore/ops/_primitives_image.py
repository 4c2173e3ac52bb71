"""Primitive classes for images and training utilities written in Python over mindspore.ops:
transposed convolution, resizing, adaptive pooling, SigmoidCrossEntropyWithLogits, InTopK and the
Summary operators (no-ops in PyNative: gradstep's debugger records every tensor anyway)."""

import mindspore.ops as ops
import mindspore.ops._functional_image as I
from mindspore import Tensor
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register


def _pair(op, name, value):
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) == 2:
        return value
    if len(value) == 4:
        return value[2:]
    raise ValueError("For '%s', the '%s' must be an int or a tuple of 2 ints, but got %s." % (op, name, value))


class _Conv2DBackpropInput(Primitive):
    @prim_attr_register
    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        U.check_int(self.name, "out_channel", out_channel, 1)
        U.check_str(self.name, "pad_mode", pad_mode.lower(), ("valid", "same", "pad"))
        U.check_str(self.name, "data_format", data_format, ("NCHW",))

    def __call__(self, dout, weight, input_size):
        size = U.shape_tuple(self.name, input_size, "input_size")
        if len(size) != 4:
            raise ValueError("For '%s', the 'input_size' must have 4 elements, but got %s." % (self.name, size))
        k = tuple(weight.shape[2:])
        stride = _pair(self.name, "stride", self.stride)
        dilation = _pair(self.name, "dilation", self.dilation)
        mode = self.pad_mode.lower()
        if mode == "pad":
            p = self.pad_list if self.pad_list else self.pad
            p = (p,) * 4 if isinstance(p, int) else tuple(p)
            pads = [(p[0], p[1]), (p[2], p[3])]
        elif mode == "same":
            pads = []
            for i in range(2):
                out = -(-size[2 + i] // stride[i])
                total = max((out - 1) * stride[i] + (k[i] - 1) * dilation[i] + 1 - size[2 + i], 0)
                pads.append((total // 2, total - total // 2))
        else:
            pads = [(0, 0), (0, 0)]
        return I.conv_transpose_nd(dout, weight, stride, dilation, self.group, pads, size[2:])


@primitive
class Conv2DBackpropInput(_Conv2DBackpropInput):
    """The gradient of Conv2D with respect to its input: (dout, weight, input_size) -> dx."""


@primitive
class Conv2DTranspose(_Conv2DBackpropInput):
    """Transposed 2-D convolution (MindSpore's name for Conv2DBackpropInput)."""


@primitive
class ResizeNearestNeighbor(Primitive):
    @prim_attr_register
    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        U.check_bool("ResizeNearestNeighbor", "align_corners", align_corners)

    def __call__(self, input_x):
        h, w = _pair("ResizeNearestNeighbor", "size", self.size)
        rule = "align_corners" if self.align_corners else ("half_pixel" if self.half_pixel_centers else "asymmetric")
        x = I._resize_axis_nearest(input_x, input_x.ndim - 2, h, rule)
        return I._resize_axis_nearest(x, input_x.ndim - 1, w, rule)


def _bilinear(op, x, size, align_corners, half_pixel_centers):
    if align_corners and half_pixel_centers:
        raise ValueError("For '%s', 'align_corners' and 'half_pixel_centers' cannot both be True." % op)
    h, w = _pair(op, "size", size)
    rule = "align_corners" if align_corners else ("half_pixel" if half_pixel_centers else "asymmetric")
    x = x if x.dtype in U._FLOATS else x.astype(U.float_dtype(x))
    x = I._resize_axis_linear(x, x.ndim - 2, h, rule)
    return I._resize_axis_linear(x, x.ndim - 1, w, rule)


@primitive
class ResizeBilinear(Primitive):
    @prim_attr_register
    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        pass

    def __call__(self, x):
        return _bilinear("ResizeBilinear", x, self.size, self.align_corners, self.half_pixel_centers)


@primitive
class ResizeBilinearV2(Primitive):
    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        pass

    def __call__(self, x, size):
        size = tuple(int(v) for v in U.numpy_of(size).reshape(-1)) if isinstance(size, Tensor) else size
        return _bilinear("ResizeBilinearV2", x, size, self.align_corners, self.half_pixel_centers)


@primitive
class AdaptiveAvgPool2D(Primitive):
    @prim_attr_register
    def __init__(self, output_size):
        pass

    def __call__(self, x):
        return ops.adaptive_avg_pool2d(x, self.output_size)


@primitive
class AdaptiveMaxPool2D(Primitive):
    @prim_attr_register
    def __init__(self, output_size):
        pass

    def __call__(self, x):
        return ops.adaptive_max_pool2d(x, self.output_size, True)


@primitive
class SigmoidCrossEntropyWithLogits(Primitive):
    """Elementwise -(y log sigmoid(x) + (1 - y) log(1 - sigmoid(x)))."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, logits, label):
        return ops.binary_cross_entropy_with_logits(logits, label, None, None, "none")


@primitive
class InTopK(Primitive):
    @prim_attr_register
    def __init__(self, k):
        U.check_int("InTopK", "k", k)

    def __call__(self, x1, x2):
        return ops.intopk(x1, x2, self.k)


def _summary(name):
    def __init__(self):
        Primitive.__init__(self, name)

    def __call__(self, tag, value):
        if not isinstance(tag, str) or not tag:
            raise TypeError("For '%s', the 'name' must be a non-empty str, but got %r." % (name, tag))
        if not isinstance(value, Tensor):
            raise TypeError("For '%s', the 'value' must be a Tensor, but got %s." % (name, type(value).__name__))
        from mindspore.train.summary.summary_record import _from_op
        kind = name[:-len("Summary")]
        _from_op(kind.lower(), "%s[:%s]" % (tag, kind), value)

    return primitive(type(name, (Primitive,), {"__init__": __init__, "__call__": __call__,
                                               "__doc__": "Records a value for the open SummaryRecord's next "
                                                          "record() (train/summary/summary_record.py)."}))


for _name in ("ScalarSummary", "TensorSummary", "ImageSummary", "HistogramSummary"):
    _summary(_name)

"""Basic Cells of MindSpore 2.2 the C++ module lacks, composed from mindspore.ops: Identity, MatMul,
Embedding, Dropout1d/2d/3d, Flatten(start_dim, end_dim), Unflatten, ZeroPad2d, ConstantPad1d/2d/3d,
Conv1d, AdaptiveAvgPool1d/2d, AdaptiveMaxPool1d/2d; and the attributes of the C++ layers MindSpore
documents (Dense.activation). The max and average pools are in _layers_pool.py."""
import math

import numpy as np

import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Uniform, initializer
from mindspore.nn._adaptive_argmax import adaptive_argmax
from mindspore.ops._functional_nn import _even_adaptive_avg

__all__ = ["Identity", "MatMul", "Embedding", "Dropout1d", "Dropout2d", "Dropout3d", "Flatten",
           "Unflatten", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "Conv1d",
           "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d"]

_CFlatten = _nn.Flatten


def _type_name(value):
    return type(value).__name__


def _check_int(who, name, value, minimum=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("For '%s', the type of '%s' must be int, but got %s."
                        % (who, name, _type_name(value)))
    if minimum is not None and value < minimum:
        raise ValueError("For '%s', the '%s' must be no less than %d, but got %d."
                         % (who, name, minimum, value))
    return value


def _check_bool(who, name, value):
    if not isinstance(value, bool):
        raise TypeError("For '%s', the type of '%s' must be bool, but got %s."
                        % (who, name, _type_name(value)))
    return value


def _hidden(cell, name, value):
    """Keeps a helper Cell on cell without registering it as a child."""
    cell.__dict__[name] = value


class Identity(_nn.Cell):
    """Returns its input."""

    def construct(self, x):
        return x


class MatMul(_nn.Cell):
    """x1 @ x2 (optionally transposed in their last two axes), broadcasting the batch axes."""

    def __init__(self, transpose_x1=False, transpose_x2=False, dtype=mstype.float32):
        super().__init__()
        self.transpose_x1 = _check_bool("MatMul", "transpose_x1", transpose_x1)
        self.transpose_x2 = _check_bool("MatMul", "transpose_x2", transpose_x2)

    @staticmethod
    def _swap(x):
        perm = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
        return ops.transpose(x, perm)

    def construct(self, x1, x2):
        if x1.ndim < 1 or x2.ndim < 1:
            raise ValueError("For 'MatMul', the inputs must have at least 1 dimension.")
        if self.transpose_x1 and x1.ndim >= 2:
            x1 = self._swap(x1)
        if self.transpose_x2 and x2.ndim >= 2:
            x2 = self._swap(x2)
        return ops.matmul(x1, x2)


class Embedding(_nn.Cell):
    """A lookup table of vocab_size vectors of embedding_size: output[..., :] =
    embedding_table[ids[...]]."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.int32, padding_idx=None):
        super().__init__()
        self.vocab_size = _check_int("Embedding", "vocab_size", vocab_size, 1)
        self.embedding_size = _check_int("Embedding", "embedding_size", embedding_size, 1)
        self.use_one_hot = _check_bool("Embedding", "use_one_hot", use_one_hot)
        self.dtype = dtype
        self.init_tensor = initializer(embedding_table, [vocab_size, embedding_size], mstype.float32)
        self.padding_idx = padding_idx
        if padding_idx is not None:
            _check_int("Embedding", "padding_idx", padding_idx)
            if not -vocab_size <= padding_idx < vocab_size:
                raise ValueError("For 'Embedding', the 'padding_idx' must be in range [%d, %d), but "
                                 "got %d." % (-vocab_size, vocab_size, padding_idx))
            table = self.init_tensor.asnumpy().copy()
            table[padding_idx] = 0
            self.init_tensor = Tensor(table, mstype.float32)
        self.embedding_table = Parameter(self.init_tensor, name="embedding_table")

    def construct(self, ids):
        shape = tuple(ids.shape)
        flat = ops.reshape(ids, (-1,))
        if self.use_one_hot:
            one_hot = ops.one_hot(flat, self.vocab_size, 1.0, 0.0)
            out = ops.matmul(one_hot, self.embedding_table)
        else:
            out = ops.gather(self.embedding_table, flat, 0)
        return ops.reshape(out, shape + (self.embedding_size,))

    def extend_repr(self):
        return "vocab_size={}, embedding_size={}, use_one_hot={}, embedding_table={!r}, dtype={}, " \
               "padding_idx={}".format(self.vocab_size, self.embedding_size, self.use_one_hot,
                                       self.embedding_table, self.dtype, self.padding_idx)


class _DropoutNd(_nn.Cell):
    _who = "Dropout2d"
    _dims = (4,)
    _functional = None

    def __init__(self, p=0.5):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise TypeError("For '%s', the 'p' must be float, but got %s." % (self._who, _type_name(p)))
        if not 0.0 <= p <= 1.0:
            raise ValueError("For '%s', the 'p' must be a number in range [0, 1], but got %s."
                             % (self._who, p))
        self.keep_prob = 1.0 - p
        self.p = float(p)

    def construct(self, x):
        if x.ndim not in self._dims:
            raise ValueError("For '%s', the dimension of 'x' must be %s, but got %d."
                             % (self._who, " or ".join(map(str, self._dims)), x.ndim))
        return self._functional(x, self.p, self.training)


class Dropout1d(_DropoutNd):
    """Zeroes whole channels of (N, C, L) / (C, L) input with probability p in training, scaling
    the rest by 1 / (1 - p)."""
    _who = "Dropout1d"
    _dims = (2, 3)
    _functional = staticmethod(ops.dropout1d)


class Dropout2d(_DropoutNd):
    """Zeroes whole channels of (N, C, H, W) input with probability p in training, scaling the
    rest by 1 / (1 - p)."""
    _who = "Dropout2d"
    _dims = (4,)
    _functional = staticmethod(ops.dropout2d)


class Dropout3d(_DropoutNd):
    """Zeroes whole channels of (N, C, D, H, W) input with probability p in training, scaling the
    rest by 1 / (1 - p)."""
    _who = "Dropout3d"
    _dims = (5,)
    _functional = staticmethod(ops.dropout3d)


class Flatten(_CFlatten):
    """Flattens the axes start_dim..end_dim into one (default: all but the first)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = _check_int("Flatten", "start_dim", start_dim)
        self.end_dim = _check_int("Flatten", "end_dim", end_dim)

    def construct(self, x):
        if self.start_dim == 1 and self.end_dim == -1:
            return _CFlatten.construct(self, x)
        ndim = x.ndim
        if ndim == 0:
            return ops.reshape(x, (1,))
        start = self.start_dim + ndim if self.start_dim < 0 else self.start_dim
        end = self.end_dim + ndim if self.end_dim < 0 else self.end_dim
        if not (0 <= start < ndim and 0 <= end < ndim):
            raise ValueError("For 'Flatten', the 'start_dim' and 'end_dim' must be in range [%d, %d), "
                             "but got 'start_dim': %d, 'end_dim': %d."
                             % (-ndim, ndim, self.start_dim, self.end_dim))
        if start > end:
            raise ValueError("For 'Flatten', 'start_dim' cannot come after 'end_dim'.")
        shape = tuple(x.shape)
        size = 1
        for d in shape[start:end + 1]:
            size *= d
        return ops.reshape(x, shape[:start] + (size,) + shape[end + 1:])


class Unflatten(_nn.Cell):
    """Splits axis into the shape unflattened_size."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        self.axis = _check_int("Unflatten", "axis", axis)
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("For 'Unflatten', the type of 'unflattened_size' must be tuple or list, "
                            "but got %s." % _type_name(unflattened_size))
        self.unflattened_size = tuple(unflattened_size)

    def construct(self, x):
        shape = tuple(x.shape)
        axis = self.axis + len(shape) if self.axis < 0 else self.axis
        sizes = list(self.unflattened_size)
        if sizes.count(-1) == 1:
            known = int(np.prod([s for s in sizes if s != -1]))
            sizes[sizes.index(-1)] = shape[axis] // known
        if int(np.prod(sizes)) != shape[axis]:
            raise ValueError("For 'Unflatten', the product of 'unflattened_size' %s must equal the "
                             "size of axis %d, %d." % (self.unflattened_size, self.axis, shape[axis]))
        return ops.reshape(x, shape[:axis] + tuple(sizes) + shape[axis + 1:])


def _pad_last(x, pads, value):
    """Pads the last len(pads)//2 axes: pads = (left of last, right of last, left of the one
    before, ...) as MindSpore's ConstantPad takes them; negative pads crop."""
    for i in range(len(pads) // 2):
        axis = x.ndim - 1 - i
        before, after = pads[2 * i], pads[2 * i + 1]
        if before < 0 or after < 0:
            size = x.shape[axis]
            index = [slice(None)] * x.ndim
            index[axis] = slice(max(-before, 0), size - max(-after, 0))
            x = x[tuple(index)]
            before, after = max(before, 0), max(after, 0)
        parts = []
        for amount in (before, after):
            if amount:
                shape = list(x.shape)
                shape[axis] = amount
                parts.append(ops.fill(x.dtype, tuple(shape), value))
            else:
                parts.append(None)
        pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
        if len(pieces) > 1:
            x = ops.concat(pieces, axis)
    return x


class _ConstantPadNd(_nn.Cell):
    _who = "ConstantPad2d"
    _n = 2

    def __init__(self, padding, value):
        super().__init__()
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * self._n)
        elif isinstance(padding, (tuple, list)):
            padding = tuple(padding)
            if len(padding) % 2 or len(padding) > 2 * self._n or not all(
                    isinstance(p, int) and not isinstance(p, bool) for p in padding):
                raise ValueError("For '%s', the 'padding' must be a tuple of at most %d ints (an even "
                                 "count), but got %s." % (self._who, 2 * self._n, padding))
        else:
            raise TypeError("For '%s', the type of 'padding' must be int or tuple, but got %s."
                            % (self._who, _type_name(padding)))
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError("For '%s', the type of 'value' must be int or float, but got %s."
                            % (self._who, _type_name(value)))
        self.padding = padding
        self.value = value

    def construct(self, x):
        if x.ndim < len(self.padding) // 2:
            raise ValueError("For '%s', the input must have at least %d dimensions, but got %d."
                             % (self._who, len(self.padding) // 2, x.ndim))
        return _pad_last(x, self.padding, self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pads the last axis with value: padding int or (left, right)."""
    _who = "ConstantPad1d"
    _n = 1


class ConstantPad2d(_ConstantPadNd):
    """Pads the last two axes with value: padding int or (left, right, top, bottom)."""
    _who = "ConstantPad2d"
    _n = 2


class ConstantPad3d(_ConstantPadNd):
    """Pads the last three axes with value: padding int or (left, right, top, bottom, front,
    back)."""
    _who = "ConstantPad3d"
    _n = 3


class ZeroPad2d(ConstantPad2d):
    """Pads the last two axes with zeros."""
    _who = "ZeroPad2d"

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class Conv1d(_nn.Cell):
    """1-D cross-correlation over (N, C_in, L) input; the weight has MindSpore's shape
    (C_out, C_in / group, 1, kernel_size)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        super().__init__()
        who = "Conv1d"
        self.in_channels = _check_int(who, "in_channels", in_channels, 1)
        self.out_channels = _check_int(who, "out_channels", out_channels, 1)
        self.kernel_size = _check_int(who, "kernel_size", kernel_size, 1)
        self.stride = _check_int(who, "stride", stride, 1)
        self.dilation = _check_int(who, "dilation", dilation, 1)
        self.group = _check_int(who, "group", group, 1)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError("For 'Conv1d', the 'pad_mode' must be one of ['same', 'valid', 'pad'], "
                             "but got %s." % (pad_mode,))
        self.pad_mode = pad_mode.lower()
        self.padding = _check_int(who, "padding", padding, 0)
        if self.padding and self.pad_mode != "pad":
            raise ValueError("For 'Conv1d', the 'padding' must be zero when 'pad_mode' is not "
                             "'pad', but got 'padding': %d, 'pad_mode': %s." % (padding, pad_mode))
        if in_channels % group or out_channels % group:
            raise ValueError("For 'Conv1d', the 'in_channels' and 'out_channels' must be divisible "
                             "by 'group', but got %d, %d and %d." % (in_channels, out_channels, group))
        self.has_bias = _check_bool(who, "has_bias", has_bias)
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels // group, 1,
                                                          kernel_size], mstype.float32), name="weight")
        if has_bias:
            if bias_init is None:
                bound = 1 / math.sqrt(in_channels // group * kernel_size)
                bias_init = Uniform(bound)
            self.bias = Parameter(initializer(bias_init, [out_channels], mstype.float32), name="bias")
        else:
            self.bias = None

    def construct(self, x):
        if x.ndim != 3:
            raise ValueError("For 'Conv1d', the dimension of input must be 3, but got %d." % x.ndim)
        x = ops.expand_dims(x, 2)
        out = ops.conv2d(x, self.weight, None, (1, self.stride),
                         self.pad_mode, (0, 0, self.padding, self.padding) if self.padding else 0,
                         (1, self.dilation), self.group)
        out = ops.squeeze(out, 2)
        if self.has_bias:
            out = out + ops.reshape(self.bias, (1, -1, 1))
        return out

    def extend_repr(self):
        return "input_channels={}, output_channels={}, kernel_size={}, stride={}, pad_mode={}, " \
               "padding={}, dilation={}, group={}, has_bias={}, weight_init={!r}, bias_init={!r}" \
            .format(self.in_channels, self.out_channels, self.kernel_size, self.stride, self.pad_mode,
                    self.padding, self.dilation, self.group, self.has_bias, self.weight, self.bias)


def _adaptive_bins(size, out):
    return [(int(math.floor(i * size / out)), int(math.ceil((i + 1) * size / out))) for i in range(out)]


def _adaptive_pool(x, sizes, reduce):
    """Pools the last len(sizes) axes of x into sizes bins each (None keeps an axis)."""
    if reduce is _mean_keep:
        even = _even_adaptive_avg(x, sizes)
        if even is not None:
            return even
    for i, out in enumerate(sizes):
        axis = x.ndim - len(sizes) + i
        size = x.shape[axis]
        if out is None or out == size:
            continue
        pieces = []
        for start, end in _adaptive_bins(size, out):
            index = [slice(None)] * x.ndim
            index[axis] = slice(start, end)
            pieces.append(reduce(x[tuple(index)], axis))
        x = ops.concat(pieces, axis)
    return x


def _mean_keep(x, axis):
    return ops.mean(x, axis, True)


def _max_keep(x, axis):
    return ops.amax(x, axis, True)


def _output_size(who, output_size, n):
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        sizes = (output_size,) * n
    elif isinstance(output_size, (tuple, list)) and len(output_size) == n:
        sizes = tuple(output_size)
    else:
        raise TypeError("For '%s', the 'output_size' must be an int or a tuple of %d ints, but got %s."
                        % (who, n, output_size))
    for s in sizes:
        if s is not None and (isinstance(s, bool) or not isinstance(s, int) or s < 1):
            raise ValueError("For '%s', the 'output_size' must be positive ints (or None), but got %s."
                             % (who, output_size))
    return sizes


class _AdaptivePool(_nn.Cell):
    _who = "AdaptiveAvgPool2d"
    _n = 2
    _ndims = (3, 4)
    _reduce = staticmethod(_mean_keep)

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size
        self._sizes = _output_size(self._who, output_size, self._n)

    def construct(self, x):
        if x.ndim not in self._ndims:
            raise ValueError("For '%s', the dimension of input must be %s, but got %d."
                             % (self._who, " or ".join(map(str, self._ndims)), x.ndim))
        return _adaptive_pool(x, self._sizes, self._reduce)


class AdaptiveAvgPool1d(_AdaptivePool):
    """Averages (N, C, L) input into output_size bins."""
    _who = "AdaptiveAvgPool1d"
    _n = 1
    _ndims = (2, 3)
    _reduce = staticmethod(_mean_keep)


class AdaptiveAvgPool2d(_AdaptivePool):
    """Averages (N, C, H, W) input into output_size bins."""
    _who = "AdaptiveAvgPool2d"
    _n = 2
    _ndims = (3, 4)
    _reduce = staticmethod(_mean_keep)


class AdaptiveMaxPool1d(_AdaptivePool):
    """The maximum of each of output_size bins of (N, C, L) input."""
    _who = "AdaptiveMaxPool1d"
    _n = 1
    _ndims = (2, 3)
    _reduce = staticmethod(_max_keep)


class _AdaptiveMaxPoolIndices(_AdaptivePool):
    """An adaptive max pool that can also give where each maximum lies in the flattened spatial
    input (int64), as AdaptiveMaxPool2d and 3d do with return_indices."""
    _reduce = staticmethod(_max_keep)

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size)
        if not isinstance(return_indices, bool):
            raise TypeError("For '%s', the type of 'return_indices' must be bool, but got %s."
                            % (self._who, type(return_indices).__name__))
        self.return_indices = return_indices

    def construct(self, x):
        out = _AdaptivePool.construct(self, x)
        if not self.return_indices:
            return out
        return out, adaptive_argmax(x, self._sizes)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolIndices):
    """The maximum of each of output_size bins of (N, C, H, W) input."""
    _who = "AdaptiveMaxPool2d"
    _n = 2
    _ndims = (3, 4)


for _name in __all__:
    setattr(_nn, _name, globals()[_name])


# ---------------------------------------------------------------------------------------------
# Attributes of the C++ layers


def _dense_activation(self):
    if "activation" in self.__dict__:
        return self.__dict__["activation"]
    return self.name_cells().get("activation")


def _set_dense_activation(self, value):
    if isinstance(value, _nn.Cell):
        self.insert_child_to_cell("activation", value)
    else:
        self.__dict__["activation"] = value


_nn.Dense.activation = property(_dense_activation, _set_dense_activation)
_nn.Dense.activation_flag = property(lambda self: _dense_activation(self) is not None)



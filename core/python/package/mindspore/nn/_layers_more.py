"""More Cells of MindSpore 2.2 composed from mindspore.ops: RReLU, Softmax2d, LRN, OneHot, Range,
ChannelShuffle, ClipByNorm, BiDense, L1Regularizer, EmbeddingLookup, MultiFieldEmbeddingLookup,
TimeDistributed and SparseTensorDenseMatmul."""
import math

import numpy as np

import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Uniform, initializer
from mindspore.nn._value_checks import deciding_values, known_values

__all__ = ["RReLU", "Softmax2d", "LRN", "OneHot", "Range", "ChannelShuffle", "ClipByNorm", "BiDense",
           "L1Regularizer", "EmbeddingLookup", "MultiFieldEmbeddingLookup", "TimeDistributed",
           "SparseTensorDenseMatmul"]


def _number(who, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("For '%s', the type of '%s' must be int or float, but got %s."
                        % (who, name, type(value).__name__))
    return value


def _int(who, name, value, minimum=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("For '%s', the type of '%s' must be int, but got %s." % (who, name, type(value).__name__))
    if minimum is not None and value < minimum:
        raise ValueError("For '%s', the '%s' must be no less than %d, but got %d." % (who, name, minimum, value))
    return value


def _bool(who, name, value):
    if not isinstance(value, bool):
        raise TypeError("For '%s', the type of '%s' must be bool, but got %s." % (who, name, type(value).__name__))
    return value


class RReLU(_nn.Cell):
    """x where x >= 0, else alpha * x with alpha drawn from U(lower, upper) per element on every
    call (as MindSpore's Cell, in training and in eval alike)."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        _number("RReLU", "lower", lower)
        _number("RReLU", "upper", upper)
        if lower > upper:
            raise ValueError("For 'RReLU', the value of 'upper' must be greater than or equal to 'lower', but got "
                             "upper: %s, lower: %s." % (upper, lower))
        self.lower, self.upper = lower, upper

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError("For 'RReLU', the 'x' must be a Tensor, but got %s." % type(x).__name__)
        if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise TypeError("For 'RReLU', the dtype of 'x' must be float16, float32 or float64, but got %s." % x.dtype)
        alpha = ops.stop_gradient(ops.rand_like(x) * (self.upper - self.lower) + self.lower)
        return ops.select(x >= 0, x, x * alpha)


class Softmax2d(_nn.Cell):
    """Softmax over the channel axis (-3) of (C, H, W) or (N, C, H, W) input."""

    def construct(self, x):
        if x.ndim not in (3, 4):
            raise ValueError("For 'Softmax2d', the input must be 3-D or 4-D (C, H, W) or (N, C, H, W), but got "
                             "%d-D." % x.ndim)
        return ops.softmax(x, -3)


class LRN(_nn.Cell):
    """Local response normalization of (N, C, H, W) input across channels:
    x / (bias + alpha * sum of x^2 over the channels c - depth_radius .. c + depth_radius)^beta."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        super().__init__()
        self.depth_radius = _int("LRN", "depth_radius", depth_radius, 0)
        self.bias = float(_number("LRN", "bias", bias))
        self.alpha = float(_number("LRN", "alpha", alpha))
        self.beta = float(_number("LRN", "beta", beta))
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError("For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got %s." % (norm_region,))
        self.norm_region = norm_region

    def construct(self, x):
        if x.ndim != 4:
            raise ValueError("For 'LRN', the input must be 4-D (N, C, H, W), but got shape %s." % (tuple(x.shape),))
        return ops.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


class OneHot(_nn.Cell):
    """One-hot vectors of depth along axis: on_value where the index matches, off_value elsewhere
    (indices outside [0, depth) give all off_value)."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        self.axis = _int("OneHot", "axis", axis)
        self.depth = _int("OneHot", "depth", depth, 0)
        self.on_value, self.off_value, self.dtype = on_value, off_value, dtype

    def construct(self, indices):
        if indices.dtype not in (mstype.int32, mstype.int64):
            raise TypeError("For 'OneHot', the dtype of 'indices' must be int32 or int64, but got %s."
                            % indices.dtype)
        if not -1 <= self.axis <= indices.ndim:
            raise ValueError("For 'OneHot', the 'axis' must be in range [-1, %d], but got %d."
                             % (indices.ndim, self.axis))
        return ops.one_hot(ops.cast(indices, mstype.int32), self.depth, Tensor(self.on_value, self.dtype),
                           Tensor(self.off_value, self.dtype), self.axis)


class Range(_nn.Cell):
    """The sequence start, start + delta, ... before limit (limit None: 0 .. start); int32 when
    all three are ints, else float32."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        for name, value in (("start", start), ("limit", limit), ("delta", delta)):
            if value is not None:
                _number("Range", name, value)
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' can not be zero.")
        if limit is None:
            start, limit = 0, start
        if (limit - start) * delta < 0:
            raise ValueError("For 'Range', the 'delta' must move from 'start' (%s) towards 'limit' (%s), but got %s."
                             % (start, limit, delta))
        self.start, self.limit, self.delta = start, limit, delta
        integral = all(isinstance(v, int) for v in (start, limit, delta))
        self.__dict__["_values"] = Tensor(np.arange(start, limit, delta),
                                          mstype.int32 if integral else mstype.float32)

    def construct(self):
        return self.__dict__["_values"]


class ChannelShuffle(_nn.Cell):
    """Splits the channels (axis 1) into groups and interleaves them: (N, g, C/g, ...) ->
    (N, C/g, g, ...)."""

    def __init__(self, groups):
        super().__init__()
        self.groups = _int("ChannelShuffle", "groups", groups, 1)

    def construct(self, x):
        if x.ndim < 3:
            raise ValueError("For 'ChannelShuffle', the dimension of 'x' must be at least 3, but got %d." % x.ndim)
        n, c = x.shape[0], x.shape[1]
        if c % self.groups:
            raise ValueError("For 'ChannelShuffle', the number of channels (%d) must be divisible by 'groups' "
                             "(%d)." % (c, self.groups))
        rest = tuple(x.shape[2:])
        y = ops.reshape(x, (n, self.groups, c // self.groups) + rest)
        y = ops.transpose(y, (0, 2, 1) + tuple(range(3, y.ndim)))
        return ops.reshape(y, (n, c) + rest)


class ClipByNorm(_nn.Cell):
    """x * clip_norm / max(||x||_2, clip_norm), the L2 norm taken over axis (None: all of x)."""

    def __init__(self, axis=None):
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple, list)):
            raise TypeError("For 'ClipByNorm', the type of 'axis' must be None, int or tuple, but got %s."
                            % type(axis).__name__)
        self.axis = axis

    def construct(self, x, clip_norm):
        axis = tuple(range(x.ndim)) if self.axis is None else self.axis
        x32 = ops.cast(x, mstype.float32)
        clip = ops.cast(clip_norm if isinstance(clip_norm, Tensor) else Tensor(clip_norm), mstype.float32)
        norm = ops.sqrt(ops.sum(x32 * x32, axis, keepdim=True))
        return x32 * clip / ops.maximum(norm, clip)


class BiDense(_nn.Cell):
    """The bilinear map y_k = x1 A_k x2 + b_k of (*, in1) and (*, in2) input: weight
    (out_channels, in1, in2), bias (out_channels); both initialised U(-1/sqrt(in1), 1/sqrt(in1))."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 dtype=mstype.float32):
        super().__init__()
        who = "BiDense"
        self.in1_channels = _int(who, "in1_channels", in1_channels, 1)
        self.in2_channels = _int(who, "in2_channels", in2_channels, 1)
        self.out_channels = _int(who, "out_channels", out_channels, 1)
        self.has_bias = _bool(who, "has_bias", has_bias)
        bound = 1.0 / math.sqrt(in1_channels)
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None else weight_init,
                                            (out_channels, in1_channels, in2_channels), dtype), name="weight")
        if has_bias:
            self.bias = Parameter(initializer(Uniform(bound) if bias_init is None else bias_init,
                                              (out_channels,), dtype), name="bias")
        else:
            self.bias = None

    def construct(self, input1, input2):
        if input1.shape[-1] != self.in1_channels or input2.shape[-1] != self.in2_channels \
                or tuple(input1.shape[:-1]) != tuple(input2.shape[:-1]):
            raise ValueError("For 'BiDense', the inputs must be (*, %d) and (*, %d) with the same leading shape, "
                             "but got %s and %s." % (self.in1_channels, self.in2_channels,
                                                     tuple(input1.shape), tuple(input2.shape)))
        lead = tuple(input1.shape[:-1])
        x1 = ops.reshape(input1, (-1, self.in1_channels))
        x2 = ops.reshape(input2, (-1, self.in2_channels))
        # (M, in1) @ (in1, out * in2) then the dot with x2 over in2.
        w = ops.reshape(ops.transpose(self.weight, (1, 0, 2)), (self.in1_channels, -1))
        t = ops.reshape(ops.matmul(x1, w), (-1, self.out_channels, self.in2_channels))
        y = ops.sum(t * ops.expand_dims(x2, 1), -1)
        if self.bias is not None:
            y = y + self.bias
        return ops.reshape(y, lead + (self.out_channels,))

    def extend_repr(self):
        return "in1_channels={}, in2_channels={}, output_channels={}, has_bias={}".format(
            self.in1_channels, self.in2_channels, self.out_channels, self.has_bias)


class L1Regularizer(_nn.Cell):
    """scale * sum(|weights|)."""

    def __init__(self, scale):
        super().__init__()
        _number("L1Regularizer", "scale", scale)
        if not scale > 0 or math.isinf(scale):
            raise ValueError("For 'L1Regularizer', the 'scale' must be a positive finite number, but got %s."
                             % scale)
        self.scale = float(scale)

    def construct(self, weights):
        return ops.sum(ops.abs(weights)) * Tensor(self.scale, weights.dtype)


class EmbeddingLookup(_nn.Cell):
    """A (vocab_size, embedding_size) table 'embedding_table' gathered at the indices; max_norm
    rescales looked-up rows longer than it. target, slice_mode, manual_shapes, sparse and
    vocab_cache_size choose devices and parallel slicing MindSpore uses, one host here."""

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU", slice_mode="batch_slice",
                 manual_shapes=None, max_norm=None, sparse=True, vocab_cache_size=0, dtype=mstype.float32):
        super().__init__()
        who = "EmbeddingLookup"
        self.vocab_size = _int(who, "vocab_size", vocab_size, 1)
        self.embedding_size = _int(who, "embedding_size", embedding_size, 1)
        if target not in ("CPU", "DEVICE"):
            raise ValueError("For '%s', the 'target' must be one of ['CPU', 'DEVICE'], but got %s." % (who, target))
        if slice_mode not in ("field_slice", "table_row_slice", "table_column_slice", "batch_slice"):
            raise ValueError("For '%s', the 'slice_mode' must be one of ['field_slice', 'table_row_slice', "
                             "'table_column_slice', 'batch_slice'], but got %s." % (who, slice_mode))
        if max_norm is not None:
            _number(who, "max_norm", max_norm)
        self.target, self.slice_mode, self.max_norm, self.sparse = target, slice_mode, max_norm, sparse
        self.embedding_table = Parameter(initializer(param_init, (vocab_size, embedding_size), dtype),
                                         name="embedding_table")

    def construct(self, indices):
        ids = known_values(indices)
        if ids is not None and ids.size and (ids.min() < 0 or ids.max() >= self.vocab_size):
            raise ValueError("For 'EmbeddingLookup', the 'indices' must be in [0, %d), but got values in [%d, %d]."
                             % (self.vocab_size, ids.min(), ids.max()))
        out = ops.gather(self.embedding_table, ops.cast(indices, mstype.int32), 0)
        if self.max_norm is not None:
            norm = ops.sqrt(ops.sum(out * out, -1, keepdim=True))
            out = out * ops.minimum(ops.ones_like(norm), self.max_norm / ops.maximum(norm, 1e-12))
        return out

    def extend_repr(self):
        return "vocab_size={}, embedding_size={}, target={}, slice_mode={}".format(
            self.vocab_size, self.embedding_size, self.target, self.slice_mode)


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Per example and field, the embeddings of the ids in that field, each scaled by its value,
    combined by operator 'SUM', 'MEAN' or 'MAX' (a field with no ids gives zeros): inputs
    (batch, seq) ids, values and field ids; output (batch, field_size, embedding_size)."""

    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", feature_num_list=None, max_norm=None, sparse=True, operator="SUM",
                 dtype=mstype.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm,
                         sparse, 0, dtype)
        self.field_size = _int("MultiFieldEmbeddingLookup", "field_size", field_size, 1)
        if operator not in ("SUM", "MEAN", "MAX"):
            raise ValueError("For 'MultiFieldEmbeddingLookup', the 'operator' must be one of ['SUM', 'MEAN', 'MAX'], "
                             "but got %s." % (operator,))
        self.operator = operator

    def construct(self, input_indices, input_values, field_ids):
        who = "MultiFieldEmbeddingLookup"
        shape = tuple(input_indices.shape)
        if len(shape) != 2 or tuple(input_values.shape) != shape or tuple(field_ids.shape) != shape:
            raise ValueError("For '%s', 'input_indices', 'input_values' and 'field_ids' must be 2-D of one shape, "
                             "but got %s, %s and %s." % (who, shape, tuple(input_values.shape),
                                                         tuple(field_ids.shape)))
        fields = known_values(field_ids)
        if fields is not None and fields.size and (fields.min() < 0 or fields.max() >= self.field_size):
            raise ValueError("For '%s', the 'field_ids' must be in [0, %d), but got values in [%d, %d]."
                             % (who, self.field_size, fields.min(), fields.max()))
        emb = EmbeddingLookup.construct(self, input_indices) * ops.expand_dims(ops.cast(input_values, self.embedding_table.dtype), -1)
        field_range = Tensor(np.arange(self.field_size, dtype=np.int32))
        member = ops.expand_dims(ops.cast(field_ids, mstype.int32), -1) == field_range   # (batch, seq, field)
        if self.operator == "MAX":
            shape = tuple(member.shape) + (self.embedding_size,)
            hit = ops.broadcast_to(ops.expand_dims(member, -1), shape)
            spread = ops.broadcast_to(ops.expand_dims(emb, 2), shape)
            best = ops.amax(ops.select(hit, spread, ops.full(shape, float("-inf"), dtype=emb.dtype)), 1)
            empty = ops.logical_not(ops.any(member, 1))
            return ops.select(ops.broadcast_to(ops.expand_dims(empty, -1), best.shape), ops.zeros_like(best), best)
        weights = ops.cast(member, emb.dtype)
        total = ops.matmul(ops.transpose(weights, (0, 2, 1)), emb)                  # (batch, field, emb)
        if self.operator == "MEAN":
            total = total / ops.expand_dims(ops.maximum(ops.sum(weights, 1), 1.0), -1)
        return total


class TimeDistributed(_nn.Cell):
    """Applies layer to every time step of (N, T, ...) input along time_axis; with
    reshape_with_axis the time axis is merged into that axis for one call instead."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        super().__init__()
        if not isinstance(layer, (_nn.Cell, ops.Primitive)):
            raise TypeError("For 'TimeDistributed', the 'layer' must be a Cell or Primitive, but got %s."
                            % type(layer).__name__)
        self.layer = layer
        self.time_axis = _int("TimeDistributed", "time_axis", time_axis)
        if reshape_with_axis is not None:
            _int("TimeDistributed", "reshape_with_axis", reshape_with_axis)
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs):
        if inputs.ndim < 3:
            raise ValueError("For 'TimeDistributed', the dimension of 'inputs' must be at least 3, but got %d."
                             % inputs.ndim)
        t_axis = self.time_axis % inputs.ndim
        if self.reshape_with_axis is None:
            steps = [self.layer(ops.squeeze(s, t_axis)) for s in ops.split(inputs, 1, t_axis)]
            return ops.stack(steps, t_axis)
        r_axis = self.reshape_with_axis % inputs.ndim
        if r_axis == t_axis:
            raise ValueError("For 'TimeDistributed', the 'reshape_with_axis' must differ from the 'time_axis', "
                             "but both are %d." % t_axis)
        # The time axis goes right after the axis it merges into: (..., R, T, ...) -> (..., R * T, ...).
        r_kept = r_axis if r_axis < t_axis else r_axis - 1
        moved = ops.moveaxis(inputs, t_axis, r_kept + 1)
        shape = tuple(moved.shape)
        merged = shape[:r_kept] + (shape[r_kept] * shape[r_kept + 1],) + shape[r_kept + 2:]
        out = self.layer(ops.reshape(moved, merged))
        split = tuple(out.shape[:r_kept]) + (shape[r_kept], shape[r_kept + 1]) + tuple(out.shape[r_kept + 1:])
        return ops.moveaxis(ops.reshape(out, split), r_kept + 1, t_axis)


class SparseTensorDenseMatmul(_nn.Cell):
    """The product of the COO sparse matrix (indices, values, sparse_shape) and a dense matrix,
    either one optionally transposed (adjoint_st / adjoint_dt); gradients reach values and
    dense."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adjoint_st = _bool("SparseTensorDenseMatmul", "adjoint_st", adjoint_st)
        self.adjoint_dt = _bool("SparseTensorDenseMatmul", "adjoint_dt", adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        shape = tuple(int(v) for v in (deciding_values("SparseTensorDenseMatmul", sparse_shape).reshape(-1)
                                       if isinstance(sparse_shape, Tensor) else sparse_shape))
        if len(shape) != 2 or indices.ndim != 2 or indices.shape[1] != 2 or values.ndim != 1 \
                or values.shape[0] != indices.shape[0] or dense.ndim != 2:
            raise ValueError("For 'SparseTensorDenseMatmul', expected indices (n, 2), values (n,), a 2-D "
                             "sparse_shape and a 2-D dense, but got %s, %s, %s and %s."
                             % (tuple(indices.shape), tuple(values.shape), shape, tuple(dense.shape)))
        ids = known_values(indices)
        if ids is not None and ids.size and (ids.min() < 0 or (ids >= np.array(shape)).any()):
            raise ValueError("For 'SparseTensorDenseMatmul', the 'indices' must lie inside sparse_shape %s."
                             % (shape,))
        sparse = ops.scatter_nd(ops.cast(indices, mstype.int64), values, shape)
        if self.adjoint_st:
            sparse = ops.transpose(sparse, (1, 0))
        if self.adjoint_dt:
            dense = ops.transpose(dense, (1, 0))
        if sparse.shape[1] != dense.shape[0]:
            raise ValueError("For 'SparseTensorDenseMatmul', the shapes %s and %s can not be multiplied."
                             % (tuple(sparse.shape), tuple(dense.shape)))
        return ops.matmul(sparse, ops.cast(dense, sparse.dtype))


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

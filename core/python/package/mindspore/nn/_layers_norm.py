"""Normalization Cells of MindSpore 2.2: BatchNorm1d/2d/3d, LayerNorm, GroupNorm, InstanceNorm1d/2d/3d.
Each is one fused op (BatchNorm, LayerNorm, GroupNorm; InstanceNorm is GroupNorm with one channel
per group) when its operands share one float dtype, and otherwise composed from mindspore.ops
(mixed dtypes promote as MindSpore's arithmetic does). The moving statistics are updated outside
the recorded graph."""
import mindspore.nn as _nn
from mindspore import Parameter, ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm",
           "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


def _check_positive_int(who, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("For '%s', the type of '%s' must be int, but got %s."
                        % (who, name, type(value).__name__))
    if value <= 0:
        raise ValueError("For '%s', the '%s' must be a positive int, but got %d." % (who, name, value))
    return value


def _check_float(who, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("For '%s', the type of '%s' must be float, but got %s."
                        % (who, name, type(value).__name__))
    return float(value)


def _check_bool(who, name, value):
    if not isinstance(value, bool):
        raise TypeError("For '%s', the type of '%s' must be bool, but got %s."
                        % (who, name, type(value).__name__))
    return value


def _param(init, shape, name, requires_grad=True):
    return Parameter(initializer(init, shape, mstype.float32), name=name, requires_grad=requires_grad)


def _fusable(x, gamma, beta):
    """Whether the fused kernels take these operands: one float dtype (mixed dtypes promote in
    the composed form, as MindSpore's arithmetic does)."""
    return x.dtype in _FUSED_DTYPES and gamma.dtype == x.dtype and beta.dtype == x.dtype


_FUSED_DTYPES = (mstype.float16, mstype.float32, mstype.float64)


def _channel_shape(ndim):
    return (1, -1) + (1,) * (ndim - 2)


class _BatchNorm(_nn.Cell):
    """Normalizes each channel (axis 1) by the batch's mean and variance in training (and moves
    moving_mean / moving_variance towards them: moving = momentum * moving + (1 - momentum) *
    batch), by the moving ones in evaluation."""

    _dims = ()
    _who = "BatchNorm"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=mstype.float32):
        super().__init__()
        who = self._who
        self.num_features = _check_positive_int(who, "num_features", num_features)
        self.eps = _check_float(who, "eps", eps)
        if self.eps <= 0:
            raise ValueError("For '%s', the 'eps' must be greater than 0, but got %s." % (who, eps))
        momentum = _check_float(who, "momentum", momentum)
        if not 0.0 <= momentum <= 1.0:
            raise ValueError("For '%s', the 'momentum' must be in range [0, 1], but got %s."
                             % (who, momentum))
        # MindSpore keeps 1 - momentum in the attribute (the weight of the batch statistics), and
        # scripts and reprs read it so: BatchNorm2d(3).momentum is 0.1 (0.09999999999999998).
        self.momentum = 1.0 - momentum
        self.affine = _check_bool(who, "affine", affine)
        if use_batch_statistics is not None:
            _check_bool(who, "use_batch_statistics", use_batch_statistics)
        self.use_batch_statistics = use_batch_statistics
        if data_format not in ("NCHW", "NCDHW", "NCL") and data_format != "NHWC":
            raise ValueError("For '%s', the 'data_format' must be 'NCHW' or 'NHWC', but got %s."
                             % (who, data_format))
        if data_format == "NHWC":
            raise ValueError("For '%s', the 'data_format' 'NHWC' is not supported by gradstep; "
                             "use 'NCHW'." % who)
        self.format = data_format
        self.moving_mean = _param(moving_mean_init, [num_features], "mean", False)
        self.moving_variance = _param(moving_var_init, [num_features], "variance", False)
        self.gamma = _param(gamma_init, [num_features], "gamma", affine)
        self.beta = _param(beta_init, [num_features], "beta", affine)

    def _check_input(self, x):
        if x.ndim not in self._dims:
            raise ValueError("For '%s', the dimension of input should be %s, but got %d."
                             % (self._who, " or ".join(str(d) for d in self._dims), x.ndim))
        if x.shape[1] != self.num_features:
            raise ValueError("For '%s', the channel of input (axis 1) should be equal to "
                             "num_features %d, but got %d." % (self._who, self.num_features, x.shape[1]))

    def construct(self, x):
        self._check_input(x)
        shape = _channel_shape(x.ndim)
        axes = (0,) + tuple(range(2, x.ndim))
        batch = self.use_batch_statistics if self.use_batch_statistics is not None else self.training
        if _fusable(x, self.gamma, self.beta) and self.moving_mean.dtype == x.dtype:
            # One BatchNorm node (fused kernel forward, one BatchNormGrad node backward); the moving
            # statistics move towards its batch statistics as below.
            y, mean, var = ops._batch_norm(x, self.gamma, self.beta, self.moving_mean, self.moving_variance,
                                           bool(batch), self.eps)
            if batch:
                self._move(ops.stop_gradient(mean), ops.stop_gradient(var), x.size // self.num_features)
            return y
        if batch:
            mean = ops.mean(x, axes, True)
            centered = x - mean
            var = ops.mean(centered * centered, axes, True)
            self._move(ops.stop_gradient(ops.reshape(mean, (-1,))), ops.stop_gradient(ops.reshape(var, (-1,))),
                       x.size // self.num_features)
            normalized = centered / ops.sqrt(var + self.eps)
        else:
            mean = ops.reshape(self.moving_mean, shape)
            var = ops.reshape(self.moving_variance, shape)
            normalized = (x - mean) / ops.sqrt(var + self.eps)
        return normalized * ops.reshape(self.gamma, shape) + ops.reshape(self.beta, shape)

    def _move(self, batch_mean, batch_var, count):
        """moving = momentum * moving + (1 - momentum) * batch (momentum as given to __init__), with
        the unbiased batch variance."""
        m = 1.0 - self.momentum
        unbiased = batch_var * (count / (count - 1.0)) if count > 1 else batch_var
        # In their own dtype: under to_float(float16) the arithmetic is float16, the statistics
        # stay float32 Parameters (MindSpore's BatchNorm updates them in place).
        mean, variance = self.moving_mean, self.moving_variance
        mean.set_data((mean * m + batch_mean * (1.0 - m)).astype(mean.dtype))
        variance.set_data((variance * m + unbiased * (1.0 - m)).astype(variance.dtype))

    def extend_repr(self):
        return "num_features={}, eps={}, momentum={}, gamma={!r}, beta={!r}, moving_mean={!r}, " \
               "moving_variance={!r}".format(self.num_features, self.eps, self.momentum, self.gamma,
                                             self.beta, self.moving_mean, self.moving_variance)


class BatchNorm1d(_BatchNorm):
    """Batch normalization over (N, C) or (N, C, L) input."""
    _dims = (2, 3)
    _who = "BatchNorm1d"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, data_format, dtype)


class BatchNorm2d(_BatchNorm):
    """Batch normalization over (N, C, H, W) input."""
    _dims = (4,)
    _who = "BatchNorm2d"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, data_format, dtype)


class BatchNorm3d(_BatchNorm):
    """Batch normalization over (N, C, D, H, W) input."""
    _dims = (5,)
    _who = "BatchNorm3d"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCDHW", dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, data_format, dtype)


class LayerNorm(_nn.Cell):
    """Normalizes over the axes from begin_norm_axis on; gamma and beta (shape normalized_shape)
    scale and shift from begin_params_axis on."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init="ones", beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError("For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] or "
                            "list[int], but got %s and the type is %s."
                            % (normalized_shape, type(normalized_shape)))
        for name, axis in (("begin_norm_axis", begin_norm_axis),
                           ("begin_params_axis", begin_params_axis)):
            if isinstance(axis, bool) or not isinstance(axis, int):
                raise TypeError("For 'LayerNorm', the type of '%s' must be int, but got %s."
                                % (name, type(axis).__name__))
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = _check_float("LayerNorm", "epsilon", epsilon)
        self.gamma = _param(gamma_init, list(normalized_shape), "gamma")
        self.beta = _param(beta_init, list(normalized_shape), "beta")

    def construct(self, x):
        ndim = x.ndim
        begin = self.begin_norm_axis + ndim if self.begin_norm_axis < 0 else self.begin_norm_axis
        if not 0 <= begin < ndim:
            raise ValueError("For 'LayerNorm', the 'begin_norm_axis' must be in range [%d, %d), but "
                             "got %d." % (-ndim, ndim, self.begin_norm_axis))
        params_begin = self.begin_params_axis + ndim if self.begin_params_axis < 0 \
            else self.begin_params_axis
        if tuple(x.shape[params_begin:]) != self.normalized_shape:
            raise ValueError("For 'LayerNorm', the shape of gamma and beta %s must equal the input's "
                             "shape from 'begin_params_axis' on, %s."
                             % (self.normalized_shape, tuple(x.shape[params_begin:])))
        if _fusable(x, self.gamma, self.beta) and 0 <= params_begin < ndim:
            # One LayerNorm node (fused kernel forward, one LayerNormGrad node backward).
            return ops._layer_norm(x, self.gamma, self.beta, begin, params_begin, self.epsilon)[0]
        axes = tuple(range(begin, ndim))
        mean = ops.mean(x, axes, True)
        centered = x - mean
        var = ops.mean(centered * centered, axes, True)
        y = centered / ops.sqrt(var + self.epsilon)
        return y * self.gamma + self.beta

    def extend_repr(self):
        return "normalized_shape={}, begin_norm_axis={}, begin_params_axis={}, gamma={!r}, beta={!r}" \
            .format(self.normalized_shape, self.begin_norm_axis, self.begin_params_axis,
                    self.gamma, self.beta)


class GroupNorm(_nn.Cell):
    """Normalizes (N, C, ...) input over groups of C / num_groups channels, then scales and shifts
    each channel by gamma and beta."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=mstype.float32):
        super().__init__()
        self.num_groups = _check_positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = _check_positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups != 0:
            raise ValueError("For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', "
                             "but got 'num_channels': %d, 'num_groups': %d."
                             % (num_channels, num_groups))
        self.eps = _check_float("GroupNorm", "eps", eps)
        self.affine = _check_bool("GroupNorm", "affine", affine)
        self.gamma = _param(gamma_init, [num_channels], "gamma", affine)
        self.beta = _param(beta_init, [num_channels], "beta", affine)

    def construct(self, x):
        if x.ndim < 2 or x.shape[1] != self.num_channels:
            raise ValueError("For 'GroupNorm', the input must have %d channels at axis 1, but got "
                             "shape %s." % (self.num_channels, tuple(x.shape)))
        if _fusable(x, self.gamma, self.beta):
            # One GroupNorm node (fused kernel forward, one GroupNormGrad node backward).
            return ops._group_norm(x, self.gamma, self.beta, self.num_groups, self.eps)[0]
        shape = tuple(x.shape)
        grouped = ops.reshape(x, (shape[0], self.num_groups, -1))
        mean = ops.mean(grouped, 2, True)
        centered = grouped - mean
        var = ops.mean(centered * centered, 2, True)
        y = ops.reshape(centered / ops.sqrt(var + self.eps), shape)
        cs = _channel_shape(len(shape))
        return y * ops.reshape(self.gamma, cs) + ops.reshape(self.beta, cs)

    def extend_repr(self):
        return "num_groups={}, num_channels={}, eps={}, affine={}".format(
            self.num_groups, self.num_channels, self.eps, self.affine)


class _InstanceNorm(_nn.Cell):
    _dims = 4
    _who = "InstanceNorm2d"

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones",
                 beta_init="zeros"):
        super().__init__()
        who = self._who
        self.num_features = _check_positive_int(who, "num_features", num_features)
        self.eps = _check_float(who, "eps", eps)
        self.momentum = _check_float(who, "momentum", momentum)
        self.affine = _check_bool(who, "affine", affine)
        self.gamma = _param(gamma_init, [num_features], "gamma", affine)
        self.beta = _param(beta_init, [num_features], "beta", affine)

    def construct(self, x):
        if x.ndim != self._dims:
            raise ValueError("For '%s', the dimension of input should be %d, but got %d."
                             % (self._who, self._dims, x.ndim))
        if x.shape[1] != self.num_features:
            raise ValueError("For '%s', the channel of input (axis 1) should be equal to "
                             "num_features %d, but got %d." % (self._who, self.num_features, x.shape[1]))
        if _fusable(x, self.gamma, self.beta):
            # GroupNorm with one channel per group: one node, the same kernel.
            return ops._group_norm(x, self.gamma, self.beta, self.num_features, self.eps)[0]
        axes = tuple(range(2, x.ndim))
        mean = ops.mean(x, axes, True)
        centered = x - mean
        var = ops.mean(centered * centered, axes, True)
        cs = _channel_shape(x.ndim)
        y = centered / ops.sqrt(var + self.eps)
        return y * ops.reshape(self.gamma, cs) + ops.reshape(self.beta, cs)

    def extend_repr(self):
        return "num_features={}, eps={}, momentum={}, gamma={!r}, beta={!r}".format(
            self.num_features, self.eps, self.momentum, self.gamma, self.beta)


class InstanceNorm1d(_InstanceNorm):
    """Normalizes each (sample, channel) of (N, C, L) input over L."""
    _dims = 3
    _who = "InstanceNorm1d"


class InstanceNorm2d(_InstanceNorm):
    """Normalizes each (sample, channel) of (N, C, H, W) input over H and W."""
    _dims = 4
    _who = "InstanceNorm2d"


class InstanceNorm3d(_InstanceNorm):
    """Normalizes each (sample, channel) of (N, C, D, H, W) input over D, H and W."""
    _dims = 5
    _who = "InstanceNorm3d"


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

"""mindspore.amp of MindSpore 2.2: the mixed-precision levels and loss scale managers
(mindspore.train.amp, mindspore.train.loss_scale_manager) and the functional loss scalers
(StaticLossScaler, DynamicLossScaler, all_finite, init_status) for training loops written with
value_and_grad."""
from abc import ABC, abstractmethod

from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.train._checks import check_positive_int
from mindspore.train.amp import (auto_mixed_precision, build_train_network, custom_mixed_precision,
                                 get_black_list, get_white_list)
from mindspore.train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager", "build_train_network",
           "DynamicLossScaler", "StaticLossScaler", "LossScaler", "auto_mixed_precision", "init_status",
           "all_finite", "custom_mixed_precision", "get_white_list", "get_black_list"]


def _map(fn, inputs):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(_map(fn, x) for x in inputs)
    return fn(inputs)


def _is_finite(x):
    return ops.isfinite(x).all()


def init_status():
    """The overflow status an Ascend device keeps; elsewhere (gradstep's CPU) eight zeros that
    all_finite does not need."""
    return Tensor([0, 0, 0, 0, 0, 0, 0, 0], mstype.float32)


def all_finite(inputs, status=None):
    """A bool scalar Tensor: True when no Tensor in inputs (a tuple or list) holds inf or NaN."""
    flags = [_is_finite(x) for x in inputs]
    if not flags:
        return Tensor(True, mstype.bool_)
    return ops.stack(flags).all()


def _scale_of(scaler):
    return float(scaler.scale_value.asnumpy().reshape(-1)[0])


def _ms_tracing():
    import mindspore as _ms
    return _ms._jit_tracing()


def _report_scale(scaler, used=None, finite=None):
    """Tells the debugger the scale a step's gradients carry (nn._report_loss_scale), so that its
    summary shows the true gradients (Note [Loss-scaled gradients] in core/debug/recorder.cpp).
    unscale() comes after the step's gradient call and before its update: it reports the scale in
    use, with no overflow yet; adjust() reports the decision. When the update ran, the step has
    ended before adjust() and its report is only the next scale. Compiled code (@jit) reports
    nothing: the values are not known while tracing."""
    if _ms_tracing():
        return
    import mindspore.nn as _nn
    used = _scale_of(scaler) if used is None else used
    overflow = finite is not None and not finite
    _nn._report_loss_scale(used, _scale_of(scaler), overflow, overflow)


def _check_scale_value(scale_value):
    if isinstance(scale_value, bool) or not isinstance(scale_value, (float, int)):
        raise TypeError("The type of 'scale_value' should be one of ['float', 'int'], but got type '%s'."
                        % type(scale_value).__name__)
    if scale_value < 1.0:
        raise ValueError("The argument 'scale_value' must be > 1, but got {}".format(scale_value))
    return scale_value


class LossScaler(ABC):
    """Base of the functional loss scalers: scale (the loss), unscale (the gradients), adjust (the
    scale after a step, given whether its gradients were finite)."""

    @abstractmethod
    def scale(self, inputs):
        """inputs multiplied by the scale."""
        raise NotImplementedError

    @abstractmethod
    def unscale(self, inputs):
        """inputs divided by the scale."""
        raise NotImplementedError

    @abstractmethod
    def adjust(self, grads_finite):
        """Updates the scale from a step's all_finite result."""
        raise NotImplementedError


class StaticLossScaler(LossScaler):
    """A constant scale (a float32 Parameter 'scale_value')."""

    def __init__(self, scale_value):
        scale_value = _check_scale_value(scale_value)
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")

    def scale(self, inputs):
        """inputs (a Tensor or a tuple of them) times the scale, in each one's dtype."""
        return _map(lambda x: x * self.scale_value.astype(x.dtype), inputs)

    def unscale(self, inputs):
        """inputs times 1 / scale, in each one's dtype."""
        _report_scale(self)
        return _map(lambda x: x * ops.reciprocal(self.scale_value).astype(x.dtype), inputs)

    def adjust(self, grads_finite):
        """The scale is fixed: False."""
        return False


class DynamicLossScaler(LossScaler):
    """A scale divided by scale_factor (down to 1) after a step whose gradients were not finite,
    and multiplied by it after scale_window finite steps in a row (when the product is finite)."""

    def __init__(self, scale_value, scale_factor, scale_window):
        scale_value = _check_scale_value(scale_value)
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")
        self.scale_window = check_positive_int(scale_window, "scale_window")
        self.scale_factor = check_positive_int(scale_factor, "scale_factor")
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter")

    def scale(self, inputs):
        """inputs (a Tensor or a tuple of them) times the scale, in each one's dtype."""
        return _map(lambda x: x * self.scale_value.astype(x.dtype), inputs)

    def unscale(self, inputs):
        """inputs times 1 / scale, in each one's dtype."""
        _report_scale(self)
        return _map(lambda x: x * ops.reciprocal(self.scale_value).astype(x.dtype), inputs)

    def adjust(self, grads_finite):
        """Updates scale_value and the counter of finite steps; returns True."""
        finite = grads_finite if isinstance(grads_finite, Tensor) else Tensor(bool(grads_finite), mstype.bool_)
        used = None if _ms_tracing() else _scale_of(self)
        one = ops.ones((), self.scale_value.dtype)
        grown = self.scale_value * self.scale_factor
        at_window = self.counter == (self.scale_window - 1)
        on_finite = ops.select(at_window, ops.select(_is_finite(grown), grown, self.scale_value), self.scale_value)
        new_scale = ops.select(finite, on_finite, ops.maximum(one, self.scale_value / self.scale_factor))
        ops.assign(self.scale_value, new_scale)
        counter = ((self.counter + 1) % self.scale_window) * finite.astype(mstype.int32)
        ops.assign(self.counter, counter)
        if used is not None:
            _report_scale(self, used, bool(finite.asnumpy()))
        return True



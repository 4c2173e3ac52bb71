"""Loss scaling of MindSpore 2.2 (mindspore.nn.wrap.loss_scale): DynamicLossScaleUpdateCell,
FixedLossScaleUpdateCell and TrainOneStepWithLossScaleCell, added to mindspore.nn.

A step multiplies the gradient flowing out of the loss by the loss scale (MindSpore's sens), so
float16 gradients that would underflow to zero stay representable, divides the gradients by it
again, and checks them for inf/NaN: an overflowing step skips the optimizer and, with a dynamic
update cell, halves the scale; scale_window good steps in a row double it.

Each step's scale and overflow decision also go to the debugger (nn._report_loss_scale, a
LossScaleEvent in core/autodiff/observer.h), as the learning rate of an update does.
"""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as _mstype

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]


def _check_update_cell_args(who, loss_scale_value):
    if isinstance(loss_scale_value, bool) or not isinstance(loss_scale_value, (int, float)):
        raise TypeError("For '%s', the type of 'loss_scale_value' should be one of ['int', 'float'], but got "
                        "type '%s'." % (who, type(loss_scale_value).__name__))


class DynamicLossScaleUpdateCell(_nn.Cell):
    """Called with (loss_scale Parameter, overflow): on overflow the scale becomes
    max(scale / scale_factor, 1); after scale_window steps since the last overflow (or the last
    increase) without one it becomes scale * scale_factor. Returns overflow."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        _check_update_cell_args("DynamicLossScaleUpdateCell", loss_scale_value)
        self.scale_window = Tensor(scale_window, dtype=_mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=_mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=_mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=_mstype.int32), name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, dtype=_mstype.float32)

    def get_loss_scale(self):
        """The initial loss scale."""
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        overflow = Tensor(bool(overflow), _mstype.bool_) if not isinstance(overflow, Tensor) else overflow
        on_overflow = ops.select(overflow, ops.maximum(loss_scale / self.scale_factor, self.minimum_loss_scale),
                                 loss_scale)
        should_inc = self.scale_window <= self.cur_iter - self.last_overflow_iter
        reset_last = ops.logical_or(overflow, should_inc)
        ops.assign(self.last_overflow_iter, ops.select(reset_last, self.cur_iter, self.last_overflow_iter))
        grow = ops.logical_and(should_inc, ops.logical_not(overflow))
        ops.assign(loss_scale, ops.select(grow, on_overflow * self.scale_factor, on_overflow))
        ops.assign(self.cur_iter, self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(_nn.Cell):
    """The update cell of a fixed scale: leaves the scale alone and returns overflow, so an
    overflowing step still skips its update."""

    def __init__(self, loss_scale_value):
        super().__init__()
        _check_update_cell_args("FixedLossScaleUpdateCell", loss_scale_value)
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        """The loss scale."""
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class _SensScale(_nn.Cell):
    """Identity forward; its backward multiplies the incoming gradient by the scale (cast to the
    gradient's dtype), which is MindSpore's sens = ones_like(loss) * cast(scale, loss.dtype) seed.
    A node of its own, so one forward pass serves the loss and the gradients."""

    def construct(self, loss, scale):
        return loss

    def bprop(self, loss, scale, out, dout):
        return dout * ops.cast(ops.reshape(scale, ()), dout.dtype), ops.zeros_like(scale)


class TrainOneStepWithLossScaleCell(_nn.TrainOneStepCell):
    """One training step with loss scaling; returns (loss, overflow, loss scale). scale_sense is an
    update Cell (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell) or a Tensor of shape () or
    (1,) holding a scale that set_sense_scale changes."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        if isinstance(scale_sense, _nn.Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=_mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            self.__dict__["loss_scaling_manager"] = None
            if scale_sense.shape in ((1,), ()):
                self.scale_sense = Parameter(scale_sense, name="scale_sense")
            else:
                raise ValueError("For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or (), "
                                 "but got {}.".format(scale_sense.shape))
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but got "
                            "'scale_sense' type: {}.".format(type(scale_sense)))
        self.__dict__["_sens_scale"] = _SensScale()
        self.__dict__["_value_and_grad"] = ops.value_and_grad(self._scaled_loss, None, self.weights)

    def _scaled_loss(self, *inputs):
        return self._sens_scale(self.network(*inputs), self.scale_sense)

    def construct(self, *inputs):
        scaling_sens = self.scale_sense
        used_scale = float(scaling_sens.asnumpy().reshape(-1)[0])
        loss, grads = self._value_and_grad(*inputs)
        reciprocal = ops.reciprocal(scaling_sens)
        per_dtype = {}  # 1 / scale in each gradient dtype, cast once
        for g in grads:
            if g.dtype not in per_dtype:
                per_dtype[g.dtype] = ops.cast(reciprocal, g.dtype)
        grads = tuple(g * per_dtype[g.dtype] for g in grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(None, grads)
        overflow = self.process_loss_scale(cond)
        skipped = bool(overflow)
        _nn._report_loss_scale(used_scale, float(self.scale_sense.asnumpy().reshape(-1)[0]), bool(cond), skipped)
        if not skipped:
            self.optimizer(grads)
        return loss, cond, scaling_sens

    def set_sense_scale(self, sens):
        """Sets the scale of a Tensor scale_sense."""
        if self.loss_scaling_manager is None and isinstance(sens, Tensor):
            self.scale_sense.set_data(sens)
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be Tensor, but got {}"
                            .format(type(sens)))

    def start_overflow_check(self, pre_cond, compute_input):
        """(status, compute_input): CPU keeps no overflow status; the check reads the gradients."""
        return False, compute_input

    def get_overflow_status(self, status, compute_output):
        """A bool Tensor: True when a gradient in compute_output holds inf or NaN."""
        return Tensor(_nn._gradients_overflow(compute_output), _mstype.bool_)

    def process_loss_scale(self, overflow):
        """The update cell's verdict on overflow (it adjusts the scale), or overflow itself."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
del _ms

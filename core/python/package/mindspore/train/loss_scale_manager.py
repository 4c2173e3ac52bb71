"""Loss scale managers of MindSpore 2.2 (mindspore.train.loss_scale_manager; also mindspore.amp and
the top level): what build_train_network and Model turn into the loss scale of a training step."""
import mindspore.nn as nn
import mindspore.nn._loss_scale  # noqa: F401  (adds the update cells to mindspore.nn)
from mindspore.train._checks import check_positive_int

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]


class LossScaleManager:
    """Base class: get_loss_scale (the current scale), update_loss_scale(overflow) (the scale after
    a step) and get_update_cell (the Cell a TrainOneStepWithLossScaleCell calls each step)."""

    def get_loss_scale(self):
        """The current loss scale."""

    def update_loss_scale(self, overflow):
        """Adjusts the loss scale after a step that did (or did not) overflow."""

    def get_update_cell(self):
        """The Cell that updates the loss scale in a training step, or None."""


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale. With drop_overflow_update (the default) an overflowing step skips
    its update (get_update_cell is a FixedLossScaleUpdateCell); without it every step updates and
    the optimizer's loss_scale must divide the gradients (get_update_cell is None)."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError("The argument 'loss_scale' must be >= 1, but got {}".format(loss_scale))
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        """The loss scale."""
        return self._loss_scale

    def get_drop_overflow_update(self):
        """Whether an overflowing step skips its update."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """Does nothing: the scale is fixed."""

    def get_update_cell(self):
        """nn.FixedLossScaleUpdateCell(loss_scale) when drop_overflow_update, else None."""
        if not self._drop_overflow_update:
            return None
        return nn.FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale divided by scale_factor (down to 1) on each overflowing step and multiplied by
    it after scale_window steps in a row without one."""

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError("The argument 'init_loss_scale' must be > 1, but got {}".format(init_loss_scale))
        self.loss_scale = init_loss_scale
        check_positive_int(scale_window, "scale_window", self.__class__.__name__)
        self.scale_window = scale_window
        if scale_factor <= 0:
            raise ValueError("The argument 'scale_factor' must be > 0, but got {}".format(scale_factor))
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        """The current loss scale."""
        return self.loss_scale

    def update_loss_scale(self, overflow):
        """The host-side rule: divide on overflow, multiply every scale_window good steps; a run of
        more than bad_step_max overflowing steps is a RuntimeError."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError("Dynamic loss scale Continuous overflow ", self.bad_step,
                               " times, has exceeded maximum threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        """Always True: an overflowing step skips its update."""
        return True

    def get_update_cell(self):
        """nn.DynamicLossScaleUpdateCell with this manager's scale, factor and window."""
        return nn.DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)

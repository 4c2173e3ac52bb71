"""ReduceLROnPlateau: lowers the optimizer's learning rate when a monitored value stops
improving."""
import numpy as np

from mindspore import Parameter, Tensor
from mindspore.train._checks import (check_bool, check_float_range_open, check_non_negative_int,
                                     check_value_type)
from mindspore.train.callback._callback import Callback
from mindspore.train.callback._early_stop import _direction, _monitor_value

__all__ = ["ReduceLROnPlateau"]


class ReduceLROnPlateau(Callback):
    """Multiplies the optimizer's learning rate by `factor` (not below min_lr) once `monitor` has
    not improved by more than min_delta for `patience` epochs, then waits `cooldown` epochs.
    monitor as for EarlyStopping."""

    def __init__(self, monitor='eval_loss', factor=0.1, patience=10, verbose=False, mode='auto',
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        self.monitor = check_value_type('monitor', monitor, str)
        self.factor = check_float_range_open(factor, 0.0, 1.0, "factor", "ReduceLROnPlateau")
        self.patience = check_non_negative_int(patience)
        self.verbose = check_bool(verbose)
        self.mode = check_value_type('mode', mode, str)
        min_delta = check_value_type("min_delta", min_delta, [float, int])
        self.min_delta = abs(min_delta)
        self.cooldown = check_non_negative_int(cooldown)
        self.min_lr = check_value_type("min_lr", min_lr, [float, int])
        if self.mode not in ['auto', 'min', 'max']:
            raise ValueError("mode should be 'auto', 'min' or 'max', but got %s." % self.mode)
        self.is_improvement, self.best = _direction(self.mode, self.monitor, self.min_delta)
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, run_context):
        self.cooldown_counter = 0
        self.wait = 0
        self.is_improvement, self.best = _direction(self.mode, self.monitor, self.min_delta)

    @staticmethod
    def _learning_rate(optimizer):
        lr = getattr(optimizer, "learning_rate", None)
        if isinstance(lr, Parameter) and lr.shape in ((), (1,)):
            return float(lr.asnumpy().reshape(())), lr
        if isinstance(lr, (int, float)) and not isinstance(lr, bool):
            return float(lr), None
        raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group learning rate now.")

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        optimizer = cb_params.get("optimizer")
        if optimizer is None:
            raise ValueError("ReduceLROnPlateau needs the Model's 'optimizer', but it is None.")
        cur_lr, parameter = self._learning_rate(optimizer)
        current = _monitor_value(cb_params, self.monitor, "Learning rate reduction")
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                if cur_lr > self.min_lr:
                    new_lr = max(cur_lr * self.factor, self.min_lr)
                    if parameter is not None:
                        parameter.set_data(Tensor(np.full(parameter.shape, new_lr, np.float32)))
                    else:
                        optimizer.learning_rate = new_lr
                    if self.verbose:
                        print('Epoch %05d: ReduceLROnPlateau reducing learning rate to %s.'
                              % (cb_params.cur_epoch_num, new_lr))
                self.cooldown_counter = self.cooldown
                self.wait = 0

"""LearningRateScheduler: sets the optimizer's learning rate after each step from
learning_rate_function(current learning rate, cur_step_num)."""
import math

import numpy as np

from mindspore import Parameter, Tensor, ops
from mindspore import log as logger
from mindspore.train.callback._callback import Callback

__all__ = ["LearningRateScheduler"]


class LearningRateScheduler(Callback):
    """For optimizers with one fixed learning rate (a Parameter, or the core optimizers' number)."""

    def __init__(self, learning_rate_function):
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError("For 'LearningRateScheduler', the 'learning_rate_function' must be callable, but got "
                            "%s." % type(learning_rate_function))
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        optimizer = cb_params.get("optimizer") or getattr(cb_params.train_network, "optimizer", None)
        if optimizer is None:
            raise ValueError("LearningRateScheduler needs the Model's optimizer, but it is None.")
        lr = optimizer.learning_rate
        if isinstance(lr, Parameter):
            current = lr.asnumpy()
        elif isinstance(lr, float):
            current = lr
        else:
            raise TypeError("When learning_rate is LearningRateSchedule, it is not supported now.")
        new_lr = self.learning_rate_function(current, cb_params.cur_step_num)
        if not math.isclose(float(np.asarray(current).reshape(-1)[0]), float(new_lr), rel_tol=1e-10):
            if isinstance(lr, Parameter):
                ops.assign(lr, Tensor(np.full(lr.shape, new_lr, np.float32)))
            else:
                optimizer.learning_rate = float(new_lr)
            logger.info("At step %s, learning_rate change to %s" % (cb_params.cur_step_num, new_lr))

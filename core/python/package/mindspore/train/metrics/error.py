"""MAE and MSE."""
import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["MAE", "MSE"]


class _ErrorBase(Metric):
    _name = ""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0
        self._samples_num = 0

    def _error(self, diff):
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For '%s.update', it needs 2 inputs (predicted value, true value), "
                             "but got %d." % (self._name, len(inputs)))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y.size != y_pred.size:
            raise ValueError("For '%s.update', the predicted value (inputs[0]) and the true value (inputs[1]) "
                             "must have the same number of elements, but got shapes %s and %s."
                             % (self._name, y_pred.shape, y.shape))
        self._error_sum += self._error(y.reshape(y_pred.shape) - y_pred).sum()
        self._samples_num += y.shape[0] if y.ndim else 1

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The '%s' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, "
                               "or has called update method before calling eval method." % self._name)
        return self._error_sum / self._samples_num


class MAE(_ErrorBase):
    """Mean absolute error: sum |y_pred - y| over all elements / number of samples (first axis)."""
    _name = "MAE"

    def _error(self, diff):
        return np.abs(diff)


class MSE(_ErrorBase):
    """Mean squared error: sum (y_pred - y)^2 over all elements / number of samples (first axis)."""
    _name = "MSE"

    def _error(self, diff):
        return np.power(diff, 2)

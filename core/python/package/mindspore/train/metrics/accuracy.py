"""Accuracy."""
import numpy as np

from mindspore.train.metrics.metric import EvaluationBase, rearrange_inputs

__all__ = ["Accuracy"]


class Accuracy(EvaluationBase):
    """The fraction of correct predictions: 'classification' compares the argmax of y_pred over axis
    1 with the label (indices or one-hot); 'multilabel' counts a sample as correct when all its 0/1
    labels match."""

    def __init__(self, eval_type='classification'):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._checked_inputs(inputs, "Accuracy")
        if self._type == 'classification':
            indices = y_pred.argmax(axis=1)
            result = (np.equal(indices, y) * 1).reshape(-1)
        else:
            last = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, last).reshape(-1, self._class_num)
            y = y.swapaxes(1, last).reshape(-1, self._class_num)
            result = np.equal(y_pred, y).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, "
                               "or has called update method before calling eval method.")
        return self._correct_num / self._total_num

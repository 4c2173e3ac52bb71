"""Fbeta and F1."""
import numbers
import sys

import numpy as np

from mindspore.train._checks import check_value_type
from mindspore.train.metrics.metric import Metric, rearrange_inputs, _check_onehot_data, _class_indices

__all__ = ["Fbeta", "F1"]


class Fbeta(Metric):
    """Per-class F-beta score (1 + beta^2) TP / (beta^2 (TP + FN) + TP + FP), the predicted class
    being the argmax of y_pred; eval(average=True) gives the mean over classes."""

    def __init__(self, beta):
        super().__init__()
        self.eps = sys.float_info.min
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
            raise TypeError("For 'Fbeta', the type of 'beta' should be float or int, but got {}."
                            .format(type(beta).__name__))
        if not beta > 0:
            raise ValueError("For 'Fbeta', the argument 'beta' must be greater than 0, but got {}.".format(beta))
        self.beta = beta
        self.clear()

    def clear(self):
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Fbeta.update', it needs 2 inputs (predicted value, true value), "
                             "but got {}.".format(len(inputs)))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError("For 'Fbeta.update', class number not match, last input predicted data contain {} "
                             "classes, but current predicted data contain {} classes, please check your "
                             "predicted value(inputs[0]).".format(self._class_num, y_pred.shape[1]))
        class_num = self._class_num
        y = _class_indices(y, "Fbeta")
        if y.size and y.max() + 1 > class_num:
            raise ValueError("For 'Fbeta.update', predicted value(inputs[0]) and true value(inputs[1]) "
                             "should contain same classes, but got predicted value contains {} classes"
                             " and true value contains {} classes.".format(class_num, y.max() + 1))
        y = np.eye(class_num)[y.reshape(-1)]
        y_pred = np.eye(class_num)[y_pred.argmax(axis=1).reshape(-1)]
        self._true_positives += (y * y_pred).sum(axis=0)
        self._positives += y_pred.sum(axis=0)
        self._actual_positives += y.sum(axis=0)

    def eval(self, average=False):
        check_value_type("average", average, [bool], self.__class__.__name__)
        if self._class_num == 0:
            raise RuntimeError("The 'Fbeta' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, "
                               "or has called update method before calling eval method.")
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (b2 * self._actual_positives + self._positives + self.eps)
        if average:
            return fbeta.mean()
        return fbeta


class F1(Fbeta):
    """Fbeta with beta = 1."""

    def __init__(self):
        super().__init__(1.0)

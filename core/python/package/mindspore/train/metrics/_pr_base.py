"""What Precision and Recall share: per-class counts of predictions and labels."""
import sys

import numpy as np

from mindspore.train._checks import check_value_type
from mindspore.train.metrics.metric import EvaluationBase, _class_indices


class _PRBase(EvaluationBase):
    """Accumulates per class the true positives and `_counted` ('positives': predicted positives
    for Precision, 'actual': labelled positives for Recall)."""
    _name = ""
    _counted = ""

    def __init__(self, eval_type='classification'):
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self):
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives = np.empty(0)
            self._denominator = np.empty(0)
            self._true_positives_average = 0
            self._denominator_average = 0
        else:
            self._true_positives = 0
            self._denominator = 0

    def _update(self, inputs):
        y_pred, y = self._checked_inputs(inputs, self._name)
        class_num = self._class_num
        if self._type == "classification":
            y = _class_indices(y, self._name)
            if y.size and y.max() + 1 > class_num:
                raise ValueError("For '{}.update', predicted value (input[0]) should have the same classes "
                                 "number as true value (input[1]), but got predicted value classes {}, true value "
                                 "classes {}.".format(self._name, class_num, y.max() + 1))
            y = np.eye(class_num)[y.reshape(-1)]
            y_pred = np.eye(class_num)[y_pred.argmax(axis=1).reshape(-1)]
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(class_num, -1)
            y = y.swapaxes(1, 0).reshape(class_num, -1)
        denominator = (y_pred if self._counted == "positives" else y).sum(axis=0)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._true_positives_average += np.sum(true_positives / (denominator + self.eps))
            self._denominator_average += len(denominator)
            self._true_positives = np.concatenate((self._true_positives, true_positives), axis=0)
            self._denominator = np.concatenate((self._denominator, denominator), axis=0)
        else:
            self._true_positives += true_positives
            self._denominator += denominator

    def eval(self, average=False):
        if self._class_num == 0:
            raise RuntimeError("The '{}' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs (predicted value, true value) are empty, or "
                               "has called update method before calling eval method.".format(self._name))
        check_value_type("average", average, [bool], self._name)
        result = self._true_positives / (self._denominator + self.eps)
        if average:
            if self._type == "multilabel":
                result = self._true_positives_average / (self._denominator_average + self.eps)
            return np.mean(result)
        return result

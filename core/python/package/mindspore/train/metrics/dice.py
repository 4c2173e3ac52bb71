"""Dice and Perplexity."""
import math

import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["Dice", "Perplexity"]


class Dice(Metric):
    """The Dice coefficient 2 * |y_pred . y| / (|y_pred|^2 + |y|^2 + smooth) of each update, summed
    over the updates and divided by the number of samples seen (MindSpore's normalisation)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, (int, float)):
            raise TypeError("For 'Dice', the type of 'smooth' must be float, but got %s." % type(smooth).__name__)
        if smooth <= 0:
            raise ValueError("For 'Dice', the 'smooth' must be greater than 0, but got %s." % smooth)
        self.smooth = float(smooth)
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Dice.update', it needs 2 inputs (predicted value, true value), but got %d."
                             % len(inputs))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.shape != y.shape:
            raise ValueError("For 'Dice.update', predicted value (input[0]) and true value (input[1]) should have "
                             "the same shape, but got predicted value shape: %s, true value shape: %s."
                             % (y_pred.shape, y.shape))
        self._samples_num += y.shape[0]
        a, b = y_pred.reshape(-1).astype(np.float64), y.reshape(-1).astype(np.float64)
        self._dice_coeff_sum += 2.0 * float(a @ b) / float(a @ a + b @ b + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        return self._dice_coeff_sum / float(self._samples_num)


class Perplexity(Metric):
    """exp of the mean negative log-probability the predictions (N, ..., C) give the labels
    (N, ...); labels equal to ignore_label count for nothing."""

    def __init__(self, ignore_label=None):
        super().__init__()
        if ignore_label is not None and (isinstance(ignore_label, bool) or not isinstance(ignore_label, int)):
            raise TypeError("For 'Perplexity', the type of 'ignore_label' must be int, but got %s."
                            % type(ignore_label).__name__)
        self.ignore_label = ignore_label
        self.clear()

    def clear(self):
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Perplexity.update', it needs 2 inputs (predicted value, label), but got %d."
                             % len(inputs))
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size * pred.shape[-1] != pred.size:
            raise RuntimeError("For 'Perplexity.update', predicted value (input[0]) and label (input[1]) should "
                               "have the same number of samples, but got %s and %s." % (pred.shape, label.shape))
        label = label.reshape(-1).astype(np.int64)
        pred = pred.reshape(-1, pred.shape[-1])
        picked = pred[np.arange(label.size), np.clip(label, 0, pred.shape[-1] - 1)].astype(np.float64)
        count = picked.size
        if self.ignore_label is not None:
            ignore = label == self.ignore_label
            count -= int(ignore.sum())
            picked = np.where(ignore, 1.0, picked)
        self._sum_metric -= float(np.sum(np.log(np.maximum(1e-10, picked))))
        self._num_inst += count

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)

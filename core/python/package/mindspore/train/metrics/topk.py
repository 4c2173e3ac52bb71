"""TopKCategoricalAccuracy, Top1CategoricalAccuracy and Top5CategoricalAccuracy."""
import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs, _check_onehot_data

__all__ = ["TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy"]


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose label is among the k highest scores of y_pred (ties: the
    first index wins)."""

    def __init__(self, k):
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError("For 'TopKCategoricalAccuracy', the type of "
                            "the argument 'k' should be int, but got 'k' type: {}.".format(type(k)))
        if k < 1:
            raise ValueError("For 'TopKCategoricalAccuracy', "
                             "the argument 'k' must be at least 1, but got 'k' value: {}.".format(k))
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'TopKCategoricalAccuracy.update', "
                             "it needs 2 inputs (predicted value, true value), "
                             "but got 'inputs' size: {}.".format(len(inputs)))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        indices = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        repeated_y = y.reshape(-1, 1).repeat(self.k, axis=1)
        correct = np.equal(indices, repeated_y).sum(axis=1)
        self._correct_num += correct.sum()
        self._samples_num += repeated_y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'TopKCategoricalAccuracy' "
                               "can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs (predicted value, true value) are empty, "
                               "or has called update method before calling eval method.")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """TopKCategoricalAccuracy with k = 1."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """TopKCategoricalAccuracy with k = 5."""

    def __init__(self):
        super().__init__(5)

"""Recall."""
from mindspore.train.metrics._pr_base import _PRBase
from mindspore.train.metrics.metric import rearrange_inputs

__all__ = ["Recall"]


class Recall(_PRBase):
    """Per-class recall TP / (TP + FN) ('classification': the argmax of y_pred is the predicted
    class; 'multilabel': 0/1 arrays); eval(average=True) gives their mean."""
    _name = "Recall"
    _counted = "actual"

    @rearrange_inputs
    def update(self, *inputs):
        self._update(inputs)

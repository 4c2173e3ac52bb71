"""Precision."""
from mindspore.train.metrics._pr_base import _PRBase
from mindspore.train.metrics.metric import rearrange_inputs

__all__ = ["Precision"]


class Precision(_PRBase):
    """Per-class precision TP / (TP + FP) ('classification': the argmax of y_pred is the predicted
    class; 'multilabel': 0/1 arrays); eval(average=True) gives their mean."""
    _name = "Precision"
    _counted = "positives"

    @rearrange_inputs
    def update(self, *inputs):
        self._update(inputs)

"""ConfusionMatrix."""
import numpy as np

from mindspore.train._checks import check_value_type
from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["ConfusionMatrix"]


class ConfusionMatrix(Metric):
    """The num_classes x num_classes matrix of counts (row: true class, column: predicted class).
    y_pred (N, C, ...) scores are reduced by argmax over axis 1; y_pred of y's shape holding floats
    is thresholded (>= threshold is class 1). normalize: "no_norm", "target" (rows sum to 1),
    "prediction" (columns sum to 1) or "all"."""

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        self.num_classes = check_value_type("num_classes", num_classes, [int])
        if normalize not in ["target", "prediction", "all", "no_norm"]:
            raise ValueError("For 'ConfusionMatrix', the argument 'normalize' must be in "
                             "['all', 'prediction', 'label', 'no_norm'(None)], but got {}.".format(normalize))
        self.normalize = normalize
        self.threshold = check_value_type("threshold", threshold, [float])
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'ConfusionMatrix.update', it needs 2 inputs (predicted value, true value), "
                             "but got {}.".format(len(inputs)))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if not (y_pred.ndim == y.ndim or y_pred.ndim == y.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', predicted value (input[0]) and true value "
                             f"(input[1]) should have same dimensions, or the dimension of predicted value "
                             f"equals the dimension of true value add 1, but got predicted value ndim: "
                             f"{y_pred.ndim}, true value ndim: {y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif y_pred.dtype.kind == 'f':
            y_pred = (y_pred >= self.threshold).astype(int)
        trans = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        counts = np.bincount(trans, minlength=self.num_classes ** 2)
        if counts.size != self.num_classes ** 2:
            raise ValueError("For 'ConfusionMatrix.update', the classes of the inputs must be in [0, %d)."
                             % self.num_classes)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.normalize == "target":
                matrix = matrix / matrix.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                matrix = matrix / matrix.sum(axis=0, keepdims=True)
            else:
                matrix = matrix / matrix.sum()
        matrix[np.isnan(matrix)] = 0
        return matrix

"""ROC (the receiver operating characteristic curve, binary or one per class) and auc (the
trapezoidal area under a curve)."""
import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["ROC", "auc"]


def _binary_curve(scores, labels, pos_label):
    """(false positives, true positives, thresholds) at each distinct score, highest first."""
    order = np.argsort(scores, kind="mergesort")[::-1]
    scores, labels = scores[order], labels[order]
    distinct = np.where(np.diff(scores))[0]
    cut = np.append(distinct, labels.size - 1)
    positive = (labels == pos_label).astype(np.int64)
    tps = np.cumsum(positive)[cut]
    fps = 1 + cut - tps
    return fps, tps, scores[cut]


class ROC(Metric):
    """The ROC curve of the latest update: (fpr, tpr, thresholds) arrays for binary scores (y_pred
    and y of one shape, pos_label default 1), or lists of them per class for (N, C) scores."""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        if class_num is not None and (isinstance(class_num, bool) or not isinstance(class_num, int)):
            raise TypeError("For 'ROC', the type of 'class_num' must be int, but got %s." % type(class_num).__name__)
        if pos_label is not None and (isinstance(pos_label, bool) or not isinstance(pos_label, int)):
            raise TypeError("For 'ROC', the type of 'pos_label' must be int, but got %s." % type(pos_label).__name__)
        self.class_num, self.pos_label = class_num, pos_label
        self.clear()

    def clear(self):
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    def _shapes(self, y_pred, y):
        class_num, pos_label = self.class_num, self.pos_label
        if y_pred.ndim == y.ndim:
            if class_num is not None and class_num != 1:
                raise ValueError("For 'ROC', when y_pred and y have the same dimension, 'class_num' must be 1, but "
                                 "got %s." % class_num)
            return y_pred.reshape(-1), y.reshape(-1), 1, 1 if pos_label is None else pos_label
        if y_pred.ndim == y.ndim + 1:
            if pos_label is not None:
                raise ValueError("For 'ROC', the 'pos_label' should be None for multiclass y_pred, but got %d."
                                 % pos_label)
            # MindSpore asks for class_num here (None is refused too).
            if class_num != y_pred.shape[1]:
                raise ValueError("For 'ROC', the 'class_num' must equal the number of classes from predicted value "
                                 "(input[0]), but got 'class_num' %s, the number of classes from predicted value %d."
                                 % (class_num, y_pred.shape[1]))
            return y_pred.reshape(y_pred.shape[0], y_pred.shape[1], -1).transpose(0, 2, 1) \
                .reshape(-1, y_pred.shape[1]), y.reshape(-1), y_pred.shape[1], None
        raise ValueError("For 'ROC', y_pred must have the dimension of y or one more, but got %d and %d."
                         % (y_pred.ndim, y.ndim))

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'ROC.update', it needs 2 inputs (predicted value, true value), but got %d."
                             % len(inputs))
        y_pred = np.squeeze(self._convert_data(inputs[0]).astype(np.float64))
        y = np.squeeze(self._convert_data(inputs[1]))
        self.y_pred, self.y, self.class_num, self.pos_label = self._shapes(y_pred, y)
        self._is_update = True

    def _roc(self, scores, labels, pos_label):
        fps, tps, thresholds = _binary_curve(scores, labels, pos_label)
        # A first point at (0, 0), above every score.
        tps = np.concatenate([[0], tps])
        fps = np.concatenate([[0], fps])
        thresholds = np.concatenate([[thresholds[0] + 1], thresholds])
        if fps[-1] <= 0:
            raise ValueError("For 'ROC', no negative samples in y, false positive value should be meaningless.")
        if tps[-1] <= 0:
            raise ValueError("For 'ROC', no positive samples in y, true positive value should be meaningless.")
        return fps / fps[-1], tps / tps[-1], thresholds

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.class_num == 1:
            return self._roc(self.y_pred, self.y, self.pos_label)
        curves = [self._roc(self.y_pred[:, c], self.y, c) for c in range(self.class_num)]
        return [c[0] for c in curves], [c[1] for c in curves], [c[2] for c in curves]


def auc(x, y, reorder=False):
    """The area under the curve through the points (x, y) by the trapezoidal rule; x must be
    monotonic unless reorder sorts the points by x."""
    x = np.asarray(x.asnumpy() if hasattr(x, "asnumpy") else x, np.float64).reshape(-1)
    y = np.asarray(y.asnumpy() if hasattr(y, "asnumpy") else y, np.float64).reshape(-1)
    if x.shape != y.shape or x.size < 2:
        raise ValueError("For 'auc', 'x' and 'y' must hold the same number (at least 2) of points, but got %d and %d."
                         % (x.size, y.size))
    direction = 1.0
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if np.all(dx <= 0):
                direction = -1.0
            else:
                raise ValueError("Reordering is not turned on, and the 'x' array is neither increasing nor "
                                 "decreasing: %s." % x)
    return direction * float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))

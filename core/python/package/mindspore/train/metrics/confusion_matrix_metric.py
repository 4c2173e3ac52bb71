"""ConfusionMatrixMetric: the confusion-matrix rates (sensitivity, specificity, precision, ...,
markedness) of one-hot predictions against one-hot labels, per sample and class or accumulated."""
import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["ConfusionMatrixMetric"]

_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_NAMES = {alias: short for short, aliases in _ALIASES.items() for alias in aliases}
_DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _short_name(metric_name):
    short = _NAMES.get(metric_name.replace(" ", "_").lower())
    if short is None:
        raise NotImplementedError("The metric is not implemented.")
    return short


def _counts(y_pred, y, skip_channel):
    """(B, C, 4) counts [tp, fp, tn, fn] per sample and class."""
    if not np.all(y.astype(np.uint8) == y):
        raise ValueError("For 'ConfusionMatrixMetric.update', the true value (input[1]) must be a binarized ndarray.")
    if y_pred.ndim < 2:
        raise ValueError("For 'ConfusionMatrixMetric.update', the predicted value (input[0]) must have at least 2 "
                         "dimensions, but got %d." % y_pred.ndim)
    # MindSpore drops the first channel when skip_channel is False (the flag reads inverted there).
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError("For 'ConfusionMatrixMetric.update', the predicted value (input[0]) and the true value "
                         "(input[1]) must have the same shape, but got %s and %s." % (y_pred.shape, y.shape))
    batch, classes = y_pred.shape[:2]
    y_pred = y_pred.astype(float).reshape(batch, classes, -1)
    y = y.astype(float).reshape(batch, classes, -1)
    tp = ((y_pred + y) == 2).sum(2).astype(float)
    tn = ((y_pred + y) == 0).sum(2).astype(float)
    p = y.sum(2)
    n = y.shape[-1] - p
    return np.stack([tp, n - tn, tn, p - tp], -1)


def _ratio(a, b):
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b != 0, a / np.where(b != 0, b, 1.0), np.nan)


def _rate(metric, counts):
    """The metric of [tp, fp, tn, fn] counts (last axis); nan where its denominator is 0."""
    counts = counts[None] if counts.ndim == 1 else counts
    tp, fp, tn, fn = (counts[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    tpr, tnr = _ratio(tp, p), _ratio(tn, n)
    ppv, npv = _ratio(tp, tp + fp), _ratio(tn, tn + fn)
    table = {
        "tpr": lambda: tpr, "tnr": lambda: tnr, "ppv": lambda: ppv, "npv": lambda: npv,
        "fnr": lambda: _ratio(fn, p), "fpr": lambda: _ratio(fp, n),
        "fdr": lambda: _ratio(fp, fp + tp), "for": lambda: _ratio(fn, fn + tn),
        "pt": lambda: _ratio(np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0),
        "ts": lambda: _ratio(tp, tp + fn + fp), "acc": lambda: _ratio(tp + tn, p + n),
        "ba": lambda: (tpr + tnr) / 2.0, "f1": lambda: _ratio(2.0 * tp, 2.0 * tp + fn + fp),
        "mcc": lambda: _ratio(tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
        "fm": lambda: np.sqrt(ppv * tpr), "bm": lambda: tpr + tnr - 1.0, "mk": lambda: ppv + npv - 1.0,
    }
    return table[metric]()


def _decrease(chart, decrease):
    """(reduced chart, count of the non-nan entries reduced) of a (B, C) chart."""
    chart = np.array(chart, float)
    nans = np.isnan(chart)
    kept = (~nans).astype(float)
    chart[nans] = 0

    def mean(axis):
        count = kept.sum(axis)
        return np.where(count > 0, chart.sum(axis) / np.where(count > 0, count, 1), 0.0), count

    if decrease == "mean":
        per_sample, count = mean(1)
        samples = (count > 0).astype(float).sum(0)
        return (per_sample.sum(0) / samples if samples > 0 else 0.0), samples
    if decrease == "sum":
        return chart.sum((0, 1)), kept.sum((0, 1))
    if decrease == "mean_batch":
        return mean(0)
    if decrease == "sum_batch":
        return chart.sum(0), kept.sum(0)
    if decrease == "mean_channel":
        return mean(1)
    if decrease == "sum_channel":
        return chart.sum(1), kept.sum(1)
    return chart, kept


class ConfusionMatrixMetric(Metric):
    """A confusion-matrix metric of one-hot (N, C, ...) predictions and labels: with
    calculation_method False the counts of every update are summed and the metric taken once
    (shape (1,)); with True it is taken per sample and class, reduced by decrease and averaged
    over the updates weighted by the non-nan entries."""

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False, decrease="mean"):
        super().__init__()
        for name, value in (("skip_channel", skip_channel), ("calculation_method", calculation_method)):
            if not isinstance(value, bool):
                raise TypeError("For 'ConfusionMatrixMetric', the type of '%s' must be bool, but got %s."
                                % (name, type(value).__name__))
        if not isinstance(metric_name, str):
            raise TypeError("For 'ConfusionMatrixMetric', the type of 'metric_name' must be str, but got %s."
                            % type(metric_name).__name__)
        if decrease not in _DECREASES:
            raise ValueError("For 'ConfusionMatrixMetric', the 'decrease' must be in %s, but got %s."
                             % (list(_DECREASES), decrease))
        self._metric = _short_name(metric_name)
        self.skip_channel, self.metric_name = skip_channel, metric_name
        self.calculation_method, self.decrease = calculation_method, decrease
        self.clear()

    def clear(self):
        self._total_num = 0
        self._class_num = 0
        self._counts = np.zeros(4)
        self._updated = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted value, true value), "
                             "but got %d." % len(inputs))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        counts = _counts(y_pred, y, self.skip_channel)
        # Classification-shaped input ((N, C) or (N, C, 1)) always accumulates the counts, as MindSpore's.
        per_sample = self.calculation_method and not (y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1))
        if per_sample:
            score, kept = _decrease(_rate(self._metric, counts), self.decrease)
            self._total_num = self._total_num + np.asarray(score) * kept
            self._class_num = self._class_num + kept
        else:
            self._counts = self._counts + counts.sum((0, 1))
        self._updated = True

    def eval(self):
        if not self._updated:
            raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        if np.any(np.asarray(self._class_num) > 0):
            kept = np.asarray(self._class_num, float)
            return np.where(kept > 0, np.asarray(self._total_num) / np.where(kept > 0, kept, 1), 0.0)
        return _rate(self._metric, self._counts)

"""The segmentation distance metrics: HausdorffDistance, MeanSurfaceDistance and
RootMeanSquareDistance between the surfaces (edge voxels) of a predicted and a true label region.

An edge voxel is a region voxel with a face neighbour outside the region (the image border counts
as outside), as MindSpore's binary-erosion edges; each distance is from a surface voxel of one
region to the nearest surface voxel of the other (euclidean, chessboard or taxicab), computed
exactly by NumPy in blocks instead of SciPy's distance transforms."""
import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance"]

_METRICS = ("euclidean", "chessboard", "taxicab")


def _edges(mask):
    """mask XOR its erosion by the face-connected cross."""
    eroded = mask.copy()
    for axis in range(mask.ndim):
        for step in (1, -1):
            shifted = np.zeros_like(mask)
            src = [slice(None)] * mask.ndim
            dst = [slice(None)] * mask.ndim
            if step == 1:
                src[axis], dst[axis] = slice(1, None), slice(None, -1)
            else:
                src[axis], dst[axis] = slice(None, -1), slice(1, None)
            shifted[tuple(dst)] = mask[tuple(src)]
            eroded &= shifted
    return mask ^ eroded


def _surface_distance(from_edges, to_edges, metric):
    """The distance from each edge voxel of from_edges to the nearest edge voxel of to_edges."""
    if not from_edges.any():
        return np.array([])
    points = np.argwhere(from_edges).astype(np.float64)
    if not to_edges.any():
        return np.full(len(points), np.inf)
    targets = np.argwhere(to_edges).astype(np.float64)
    out = np.empty(len(points))
    block = max(1, 4_000_000 // max(len(targets), 1))
    for start in range(0, len(points), block):
        diff = np.abs(points[start:start + block, None, :] - targets[None, :, :])
        if metric == "euclidean":
            d = np.sqrt((diff ** 2).sum(-1))
        elif metric == "chessboard":
            d = diff.max(-1)
        else:
            d = diff.sum(-1)
        out[start:start + block] = d.min(1)
    return out


class _SurfaceMetric(Metric):
    _name = "HausdorffDistance"

    def _check_metric(self, distance_metric):
        if distance_metric not in _METRICS:
            raise ValueError("For '%s', the 'distance_metric' must be in %s, but got %s."
                             % (self._name, list(_METRICS), distance_metric))
        return distance_metric

    def clear(self):
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 3:
            raise ValueError("For '%s.update', it needs 3 inputs (predicted value, true value, label index), but "
                             "got %d." % (self._name, len(inputs)))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        label_idx = inputs[2]
        if isinstance(label_idx, bool) or not isinstance(label_idx, (int, float)):
            raise ValueError("For '%s.update', the label index (input[2]) must be int or float, but got %s."
                             % (self._name, type(label_idx).__name__))
        if label_idx not in y_pred and label_idx not in y:
            raise ValueError("For '%s.update', the label index (input[2]) should be in predicted value (input[0]) "
                             "or true value (input[1]), but got %s." % (self._name, label_idx))
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError("For '%s.update', the predicted value (input[0]) and true value (input[1]) must be "
                             "non-empty and of one shape, but got %s and %s." % (self._name, y_pred.shape, y.shape))
        y_pred = y_pred if y_pred.dtype == bool else y_pred == label_idx
        y = y if y.dtype == bool else y == label_idx
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)
        self._is_update = True

    def _distances(self, reverse=False):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        a, b = (self._y_edges, self._y_pred_edges) if reverse else (self._y_pred_edges, self._y_edges)
        return _surface_distance(a, b, self.distance_metric)


class HausdorffDistance(_SurfaceMetric):
    """The largest (or the percentile-th) surface distance from the prediction to the truth, and
    with directed=False the larger of both directions."""
    _name = "HausdorffDistance"

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        super().__init__()
        self.distance_metric = self._check_metric(distance_metric)
        if percentile is not None and (isinstance(percentile, bool) or not isinstance(percentile, (int, float))
                                       or not 0 <= percentile <= 100):
            raise ValueError("For 'HausdorffDistance', the 'percentile' must be a number in [0, 100], but got %s."
                             % (percentile,))
        for name, value in (("directed", directed), ("crop", crop)):
            if not isinstance(value, bool):
                raise TypeError("For 'HausdorffDistance', the type of '%s' must be bool, but got %s."
                                % (name, type(value).__name__))
        # crop only trims both masks to their common bounding box, which leaves every edge and distance as is.
        self.percentile, self.directed, self.crop = percentile, directed, crop
        self.clear()

    def _one_way(self, reverse):
        d = self._distances(reverse)
        if d.shape == (0,):
            return np.inf
        return d.max() if self.percentile is None else np.percentile(d, self.percentile)

    def eval(self):
        hd = self._one_way(False)
        return hd if self.directed else max(hd, self._one_way(True))


class MeanSurfaceDistance(_SurfaceMetric):
    """The mean surface distance from the prediction to the truth (symmetric: the mean of both
    directions' means)."""
    _name = "MeanSurfaceDistance"

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__()
        if not isinstance(symmetric, bool):
            raise TypeError("For 'MeanSurfaceDistance', the type of 'symmetric' must be bool, but got %s."
                            % type(symmetric).__name__)
        self.distance_metric = self._check_metric(distance_metric)
        self.symmetric = symmetric
        self.clear()

    def _reduce(self, d):
        return d.mean()

    def eval(self):
        d = self._distances()
        if d.shape == (0,):
            return np.inf
        value = self._reduce(d)
        if not self.symmetric:
            return value
        back = self._distances(True)
        if back.shape == (0,):
            return np.inf
        return float(np.mean((value, self._reduce(back))))


class RootMeanSquareDistance(MeanSurfaceDistance):
    """The root mean square surface distance from the prediction to the truth (symmetric: the
    mean of both directions')."""
    _name = "RootMeanSquareDistance"

    def _reduce(self, d):
        return np.sqrt(np.mean(np.square(d)))

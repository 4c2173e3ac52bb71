"""OcclusionSensitivity: how much a model's score for a label drops when a box around each
position of the input is set to pad_val."""
import numpy as np

from mindspore import Tensor
from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["OcclusionSensitivity"]


def _bounding_box(b_box, im_shape):
    """(min corner, max corner) of b_box [min0, max0, min1, max1, ...] (negatives: the image's
    edges), or (None, None) for the whole input."""
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(im_shape):
        raise ValueError("For 'OcclusionSensitivity', the bounding box must contain upper and lower for all dimensions "
                         "(except batch number), and the length of 'b_box' must be twice as long as predicted value's "
                         "(except batch number), but got 'b_box' length %d, predicted value length (except batch "
                         "number) %d." % (len(b_box), len(im_shape)))
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = im_shape[high < 0] - 1
    if np.any(high >= im_shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for all "
                         "values.")
    if np.any(low > high):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding box "
                         "for all values.")
    return low, high


class OcclusionSensitivity(Metric):
    """update(model, x, label) with x one example (1, ...): for every position (in b_box), the
    input with the box [position - margin, position + margin) along each non-batch axis set to
    pad_val goes through the model (n_batch images per call); eval gives the baseline score of
    label minus each occluded score, shaped as the positions."""

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        if not isinstance(pad_val, float):
            raise TypeError("For 'OcclusionSensitivity', the type of 'pad_val' must be float, but got %s."
                            % type(pad_val).__name__)
        if isinstance(margin, bool) or not isinstance(margin, (int, list)):
            raise TypeError("For 'OcclusionSensitivity', the type of 'margin' must be int or list, but got %s."
                            % type(margin).__name__)
        if isinstance(n_batch, bool) or not isinstance(n_batch, int) or n_batch < 1:
            raise TypeError("For 'OcclusionSensitivity', the 'n_batch' must be a positive int, but got %s." % (n_batch,))
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError("For 'OcclusionSensitivity', the type of 'b_box' must be list, but got %s."
                            % type(b_box).__name__)
        self.pad_val, self.margin, self.n_batch, self.b_box = pad_val, margin, n_batch, b_box
        self.clear()

    def clear(self):
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        from mindspore.nn import Cell
        if len(inputs) != 3:
            raise ValueError("For 'OcclusionSensitivity.update', it needs 3 inputs (classification model, predicted "
                             "value, label), but got %d." % len(inputs))
        model = inputs[0]
        if not isinstance(model, Cell):
            raise TypeError("For 'OcclusionSensitivity.update', the 'model' must be a Cell, but got %s."
                            % type(model).__name__)
        x = self._convert_data(inputs[1])
        label = np.asarray(inputs[2]) if isinstance(inputs[2], int) else self._convert_data(inputs[2])
        if x.shape[0] > 1:
            raise RuntimeError("For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               "(input[1]) must be 1, but got %d." % x.shape[0])
        if label.size != x.shape[0]:
            raise RuntimeError("For 'OcclusionSensitivity.update', the number of the label (input[2]) must be same as "
                               "the batches, but got the label number %d, and batches %d." % (label.size, x.shape[0]))
        label = int(label.reshape(-1)[0])
        im_shape = np.array(x.shape[1:])
        low, high = _bounding_box(self.b_box, im_shape)
        margins = np.broadcast_to(np.asarray(self.margin), im_shape.shape)
        self._baseline = float(model(Tensor(x)).asnumpy()[0, label])
        out_shape = tuple(im_shape if low is None else high - low + 1)
        scores, batch = [], []

        def flush():
            scores.extend(model(Tensor(np.concatenate(batch))).asnumpy()[:, label].tolist())
            batch.clear()

        for position in np.ndindex(*out_shape):
            at = np.array(position) + (0 if low is None else low)
            window = tuple(slice(max(0, p - m), min(n, p + m)) for p, m, n in zip(at, margins, im_shape))
            occluded = x.copy()
            occluded[(slice(None),) + window] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch:
                flush()
        if batch:
            flush()
        self._sensitivity_im = np.array(scores).reshape(out_shape)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)

"""Metric, the base of the evaluation metrics, and rearrange_inputs (Metric.set_indexes)."""
import functools
from abc import ABCMeta, abstractmethod

import numpy as np

from mindspore import Tensor

__all__ = ["Metric", "rearrange_inputs"]

_eval_types = {'classification', 'multilabel'}


def rearrange_inputs(func):
    """Decorates a Metric's update so that it receives the inputs picked by set_indexes."""

    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        inputs = inputs if not indexes else [inputs[i] for i in indexes]
        return func(self, *inputs)

    return wrapper


class Metric(metaclass=ABCMeta):
    """The base of metrics: clear() resets, update(*inputs) accumulates, eval() computes;
    metric(*inputs) does all three at once. Subclasses implement the three."""

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        if isinstance(data, Tensor):
            data = data.asnumpy()
        elif isinstance(data, list):
            data = np.array(data)
        elif isinstance(data, np.ndarray):
            pass
        else:
            raise TypeError(f"For 'Metric' and its derived classes, the input data type must be tensor, list or "
                            f"numpy.ndarray, but got {type(data)}.")
        return data

    @property
    def indexes(self):
        """The positions set_indexes chose (None: all inputs, in order)."""
        return getattr(self, '_indexes', None)

    def set_indexes(self, indexes):
        """Makes update (when decorated with rearrange_inputs) receive inputs[i] for i in indexes;
        returns the metric."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all its elements must "
                             "be int, please check whether it is correct.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self):
        """Resets the accumulated state."""
        raise NotImplementedError('Must define clear function to use this base class')

    @abstractmethod
    def eval(self):
        """Computes the metric from the accumulated state."""
        raise NotImplementedError('Must define eval function to use this base class')

    @abstractmethod
    def update(self, *inputs):
        """Accumulates one batch (usually predictions and labels)."""
        raise NotImplementedError('Must define update function to use this base class')


class EvaluationBase(Metric):
    """The base of Accuracy, Precision and Recall: eval_type 'classification' (y_pred (N, C, ...)
    scores, y class indices (N, ...) or one-hot) or 'multilabel' (0/1 arrays of one shape)."""

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in _eval_types:
            raise TypeError("The argument 'eval_type' must be in {}, but got {}".format(_eval_types, eval_type))
        self._type = eval_type

    def _check_shape(self, y_pred, y):
        if self._type == 'classification':
            if y_pred.ndim != y.ndim + 1:
                raise ValueError("In classification case, the dimension of y_pred (predicted value) should equal to "
                                 "the dimension of y (true value) add 1, but got y_pred dimension: {} and y "
                                 "dimension: {}.".format(y_pred.ndim, y.ndim))
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError("In classification case, y_pred (predicted value) shape and y (true value) shape "
                                 "can not match, y shape should be equal to y_pred shape that the value at index 1 "
                                 "is deleted. Such as y_pred shape (1, 2, 3), then y shape should be (1, 3). "
                                 "But got y_pred shape {} and y shape {}".format(y_pred.shape, y.shape))
        else:
            if y_pred.ndim != y.ndim:
                raise ValueError("In {} case, the dimension of y_pred (predicted value) should equal to the dimension"
                                 " of y (true value), but got y_pred dimension: {} and y dimension: {}."
                                 .format(self._type, y_pred.ndim, y.ndim))
            if y_pred.shape != y.shape:
                raise ValueError("In {} case, the shape of y_pred (predicted value) should equal to the shape of y "
                                 "(true value), but got y_pred shape: {} and y shape: {}."
                                 .format(self._type, y_pred.shape, y.shape))

    def _checked_inputs(self, inputs, name):
        """update's (y_pred, y) as arrays, one-hot labels as indices, shapes and values checked and
        the class number kept from the first update (`name`: 'Accuracy', 'Precision', ...)."""
        if len(inputs) != 2:
            raise ValueError("For '{}.update', it needs 2 inputs (predicted value, true value), "
                             "but got {}.".format(name, len(inputs)))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == 'classification' and y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError("For '{}.update', class number not match, last input predicted data contain {} "
                             "classes, but current predicted data contain {} classes, please check your predicted "
                             "value(inputs[0]).".format(name, self._class_num, y_pred.shape[1]))
        return y_pred, y

    def _check_value(self, y_pred, y):
        if self._type != 'classification' and not (np.equal(y_pred ** 2, y_pred).all() and np.equal(y ** 2, y).all()):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y (true value) should "
                             "be 0 or 1.Please check whether your inputs y_pred and y are correct.")

    def clear(self):
        raise NotImplementedError

    def update(self, *inputs):
        raise NotImplementedError

    def eval(self):
        raise NotImplementedError


def _check_onehot_data(data):
    """Whether data (N, C, ...) is one-hot along axis 1."""
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        shp = (data.shape[0],) + data.shape[2:]
        if np.equal(np.ones(shp), data.sum(axis=1)).all():
            return True
    return False


def _class_indices(y, who):
    """Class labels as integer indices (float labels holding integers are accepted)."""
    if y.dtype.kind == 'f':
        if not np.all(np.equal(np.floor(y), y)):
            raise ValueError("For '%s.update', the true value (inputs[1]) must hold class indices, but got "
                             "non-integer values." % who)
    return y.astype(np.int64)

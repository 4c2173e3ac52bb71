"""mindspore.dataset.transforms over 1-D and N-D columns of numbers or strings, as MindSpore 2.2
defines them: PadEnd, Slice, Concatenate, Mask (with the Relational enum) and Unique."""
import enum
import numbers

import numpy as np

import mindspore
import mindspore.dataset as _ds
import mindspore.dataset.transforms as _transforms

__all__ = ["Relational", "PadEnd", "Slice", "Concatenate", "Mask", "Unique"]


class Relational(enum.IntEnum):
    """The comparisons of Mask."""
    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


def _one(who, columns):
    if len(columns) != 1:
        raise RuntimeError("%s: takes one column, but got %d." % (who, len(columns)))
    array = np.asarray(columns[0])
    if array.dtype.kind == "S":
        array = np.char.decode(array, "utf8")
    return array


class PadEnd:
    """Pads each axis at its end to pad_shape (cutting axes that are longer) with pad_value
    (0, or '' for strings, by default)."""

    def __init__(self, pad_shape, pad_value=None):
        if not isinstance(pad_shape, list):
            raise TypeError("Argument pad_shape with value %s is not of type [<class 'list'>], but got %s."
                            % (pad_shape, type(pad_shape)))
        for d in pad_shape:
            if d is None:
                continue
            if isinstance(d, bool) or not isinstance(d, int):
                raise TypeError("a value in the list is not an integer.")
            if d <= 0:
                raise ValueError("pad_shape must be a list of positive integers, but got %s." % (pad_shape,))
        if pad_value is not None and not isinstance(pad_value, (str, bytes, numbers.Number)):
            raise TypeError("pad_value must be a number or a string, but got %s." % type(pad_value))
        self.pad_shape, self.pad_value = pad_shape, pad_value

    def __call__(self, *columns):
        array = _one("PadEnd", columns)
        if self.pad_value is not None and (array.dtype.kind == "U") != isinstance(self.pad_value, (str, bytes)):
            raise RuntimeError("PadEnd: Source and pad_value are not of the same type.")
        return _pad_to(array, self.pad_shape, self.pad_value, "PadEnd")


def _pad_to(array, shape, value, who):
    """array cut or padded at the end of each axis to shape (the pipeline's padding, core/data/pad.h)."""
    if len(shape) != array.ndim:
        raise RuntimeError("%s: invalid pad shape, the rank of pad_shape %d should be the same as the "
                           "input's rank %d." % (who, len(shape), array.ndim))
    try:
        return _ds._pad_rows([array], shape, value, who)[0]
    except RuntimeError as e:
        raise RuntimeError("%s: %s" % (who, e)) from None


def _axis_index(who, spec, length):
    if spec is None or spec is Ellipsis or spec is True:
        return np.arange(length)
    if isinstance(spec, slice):
        return np.arange(length)[spec]
    if isinstance(spec, numbers.Integral) and not isinstance(spec, bool):
        spec = [spec]
    if isinstance(spec, list) and all(isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in spec):
        for i in spec:
            if not -length <= i < length:
                raise RuntimeError("%s: Index %d is out of bounds." % (who, i))
        return np.array(spec, dtype=np.int64) % max(length, 1)
    raise TypeError("Argument slice option with value %s is not of type [<class 'int'>, <class 'list'>, "
                    "<class 'slice'>, <class 'NoneType'>, <class 'ellipsis'>], but got %s." % (spec, type(spec)))


class Slice:
    """Picks, axis by axis, an int, a list of ints, a slice, or everything (None / Ellipsis)."""

    def __init__(self, *slices):
        if not slices:
            raise ValueError("Slice: at least one slice option is required.")
        for spec in slices:
            if isinstance(spec, list):
                for i, item in enumerate(spec):
                    if isinstance(item, bool) or not isinstance(item, numbers.Integral):
                        raise TypeError("Argument slice_option[%d] with value %s is not of type [<class 'int'>], "
                                        "but got %s." % (i, item, type(item)))
        self.slices = slices

    def __call__(self, *columns):
        array = _one("Slice", columns)
        if len(self.slices) > array.ndim:
            raise RuntimeError("Slice: the number of slice options %d exceeds the input's rank %d."
                               % (len(self.slices), array.ndim))
        if any(isinstance(s, list) and not s for s in self.slices):
            raise RuntimeError("Slice: Both indices and slices can not be empty.")
        index = [_axis_index("Slice", s, array.shape[d]) for d, s in enumerate(self.slices)]
        index += [np.arange(array.shape[d]) for d in range(len(self.slices), array.ndim)]
        return array[np.ix_(*index)]


class Concatenate:
    """prepend, the column and append joined along axis (1-D only, as in MindSpore)."""

    def __init__(self, axis=0, prepend=None, append=None):
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError("Argument axis with value %s is not of type [<class 'int'>], but got %s."
                            % (axis, type(axis)))
        if axis not in (0, -1):
            raise ValueError("only 1D concatenation supported.")
        for name, value in (("prepend", prepend), ("append", append)):
            if value is not None and not isinstance(value, np.ndarray):
                raise TypeError("Argument %s with value %s is not of type [<class 'numpy.ndarray'>], but got %s."
                                % (name, value, type(value)))
            if value is not None and value.ndim != 1:
                raise ValueError("can only %s 1D arrays." % name)
        self.axis, self.prepend, self.append = axis, prepend, append

    def __call__(self, *columns):
        parts = [np.asarray(c) for c in columns]
        if self.prepend is not None:
            parts.insert(0, self.prepend)
        if self.append is not None:
            parts.append(self.append)
        parts = [np.char.decode(p, "utf8") if p.dtype.kind == "S" else p for p in parts]
        if self.axis not in (0, -1):
            raise RuntimeError("Concatenate: only 1D concatenation supported, axis should be 0 or -1, but got %d."
                               % self.axis)
        for p in parts:
            if p.ndim != 1:
                raise RuntimeError("Concatenate: only 1D input supported, but got shape %s." % (p.shape,))
        if len({p.dtype.kind == "U" for p in parts}) > 1:
            raise RuntimeError("Concatenate: input datatype does not match the datatype of prepend/append: all "
                               "strings or all numbers.")
        return np.concatenate(parts)


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask:
    """Elementwise column <operator> constant, as dtype (bool by default)."""

    def __init__(self, operator, constant, dtype=mindspore.bool_):
        if not isinstance(operator, Relational):
            raise TypeError("Argument operator with value %s is not of type [<enum 'Relational'>], but got %s."
                            % (operator, type(operator)))
        if not isinstance(constant, (str, bytes, numbers.Number)):
            raise TypeError("Argument constant with value %s is not of type [<class 'str'>, <class 'float'>, "
                            "<class 'int'>], but got %s." % (constant, type(constant)))
        self.operator, self.constant, self.dtype = operator, constant, dtype
        self._type = np.dtype(mindspore.dtype_to_nptype(dtype))

    def __call__(self, *columns):
        array = _one("Mask", columns)
        constant = self.constant.decode("utf8") if isinstance(self.constant, bytes) else self.constant
        if (array.dtype.kind == "U") != isinstance(constant, str):
            raise RuntimeError("Mask: input datatype does not match the value datatype. The constant %r cannot be "
                               "compared with a column of %s." % (constant, array.dtype))
        return _COMPARE[self.operator](array, constant).astype(self._type)


class Unique:
    """The distinct values of a batched (at least 2-D, flattened) numeric column in the order they
    first appear, each element's index among them, and how often each appears (int32), as
    MindSpore's UniqueOp computes them."""

    def __call__(self, *columns):
        if len(columns) != 1:
            raise RuntimeError("Unique: only support 1D input, got rank: %d" % len(columns))
        array = _one("Unique", columns)
        if array.dtype.kind not in "biuf":
            raise RuntimeError("Unique: only support numeric datatype of input, got string.")
        if array.ndim < 2:
            raise RuntimeError("Unique: input must be at least 2-D in order to do unique op, got rank:%d"
                               % array.ndim)
        array = array.reshape(-1)
        first, inverse, counts = np.unique(array, return_index=True, return_inverse=True, return_counts=True)[1:]
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return (array[np.sort(first)], rank[inverse].astype(np.int32), counts[order].astype(np.int32))


for _name in __all__:
    if not hasattr(_transforms, _name):
        setattr(_transforms, _name, globals()[_name])

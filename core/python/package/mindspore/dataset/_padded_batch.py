"""Batches of rows of different shapes, as MindSpore 2.2 makes them: Dataset.padded_batch (and
batch's pad_info of MindSpore 1.x) pad each batch's rows to a common shape before stacking, and
bucket_batch_by_length groups rows by length into buckets, each batched (and padded) on its own.

pad_info is {column: (pad_shape, pad_value)}: pad_shape None, or None entries, pad to the longest row
of the batch; pad_value None pads with 0 ('' for strings). An empty dict pads every column so; a
non-empty one pads only the columns it names."""
import numbers

import numpy as np

import mindspore.dataset as _ds
from mindspore.dataset._dataset_checks import check_columns, type_check
from mindspore.dataset._dataset_ops import _derived, _rows, _Source

_Dataset = _ds.Dataset
_cpp_batch = _Dataset.batch


def _check_pad_info(names, pad_info):
    if not isinstance(pad_info, dict):
        raise TypeError("Argument pad_info with value %s is not of type [<class 'dict'>], but got %s."
                        % (pad_info, type(pad_info)))
    for column, spec in pad_info.items():
        if not isinstance(column, str):
            raise TypeError("Argument pad_info key with value %s is not of type [<class 'str'>], but got %s."
                            % (column, type(column)))
        if column not in names:
            raise ValueError("Invalid pad_info, column name: '%s' does not exist in the dataset columns %s."
                             % (column, names))
        if not isinstance(spec, tuple) or len(spec) != 2:
            raise TypeError("Argument pad_info['%s'] with value %s is not of type [<class 'tuple'>] of "
                            "(pad_shape, pad_value)." % (column, spec))
        shape, value = spec
        if shape is not None:
            if not isinstance(shape, list):
                raise TypeError("Argument pad_shape with value %s is not of type [<class 'list'>], but got %s."
                                % (shape, type(shape)))
            for d in shape:
                if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d <= 0):
                    raise ValueError("Invalid pad_shape %s of column '%s': each entry must be a positive int "
                                     "or None." % (shape, column))
        if value is not None and not isinstance(value, (str, bytes, numbers.Number)):
            raise TypeError("pad_value of column '%s' must be a number or a string, but got %s."
                            % (column, type(value)))
    return pad_info


def _pad_column(name, rows, spec):
    """rows (NumPy arrays of one column) padded to one shape by the C++ pipeline's padding: spec's
    shape, with None entries (or no shape) taking the batch's longest; longer rows are cut, as
    MindSpore's PadEnd cuts them."""
    return _ds._pad_rows(list(rows), spec[0], spec[1], name)


def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None):
    """batch_size rows per batch, each column padded to a common shape as pad_info says (None: no
    padding, rows must agree in shape). The padding is the C++ pipeline's (core/data/pad.h)."""
    if pad_info is None:
        return _cpp_batch(self, batch_size, drop_remainder, num_parallel_workers)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int):
        raise TypeError("Argument batch_size with value %s is not of type [<class 'int'>], but got %s."
                        % (batch_size, type(batch_size)))
    if not isinstance(drop_remainder, bool):
        raise TypeError("Argument drop_remainder with value %s is not of type [<class 'bool'>], but got %s."
                        % (drop_remainder, type(drop_remainder)))
    _check_pad_info(list(self.get_col_names()), pad_info)
    return self._padded_batch(batch_size, drop_remainder, pad_info)


def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, per_batch_map=None,
          input_columns=None, output_columns=None, python_multiprocessing=False, max_rowsize=None,
          pad_info=None, **kwargs):
    """Dataset.batch; pad_info (MindSpore 1.x's argument) makes it padded_batch."""
    if kwargs:
        raise TypeError("batch() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    if pad_info is not None:
        if per_batch_map is not None:
            raise ValueError("batch: pad_info and per_batch_map cannot be used together; pad in "
                             "per_batch_map, or batch with padded_batch after it.")
        return padded_batch(self, batch_size, drop_remainder, num_parallel_workers, pad_info)
    return _cpp_batch(self, batch_size, drop_remainder, num_parallel_workers, per_batch_map=per_batch_map,
                      input_columns=input_columns, output_columns=output_columns,
                      python_multiprocessing=python_multiprocessing, max_rowsize=max_rowsize)


def _check_bucket_arguments(column_names, bucket_boundaries, bucket_batch_sizes, element_length_function,
                            pad_to_bucket_boundary, drop_remainder):
    """MindSpore's check_bucket_batch_by_length, in its order and words."""
    for name, value in (("column_names", column_names), ("bucket_boundaries", bucket_boundaries),
                        ("bucket_batch_sizes", bucket_batch_sizes)):
        type_check(value, (list,), name)
    for name, value in (("pad_to_bucket_boundary", pad_to_bucket_boundary), ("drop_remainder", drop_remainder)):
        type_check(value, (bool,), name)
    check_columns(column_names, "column_names")
    if element_length_function is None and len(column_names) != 1:
        raise ValueError("If element_length_function is not specified, exactly one column name should be passed.")
    if element_length_function is not None and not callable(element_length_function):
        raise TypeError("element_length_function object is not callable.")
    if not bucket_boundaries:
        raise ValueError("bucket_boundaries cannot be empty.")
    if not all(isinstance(b, int) for b in bucket_boundaries):
        raise TypeError("bucket_boundaries should be a list of int.")
    if not all(b > 0 for b in bucket_boundaries):
        raise ValueError("bucket_boundaries must only contain positive numbers.")
    if any(a >= b for a, b in zip(bucket_boundaries, bucket_boundaries[1:])):
        raise ValueError("bucket_boundaries should be strictly increasing.")
    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError("bucket_batch_sizes must contain one element more than bucket_boundaries.")
    if not all(isinstance(b, int) for b in bucket_batch_sizes):
        raise TypeError("bucket_batch_sizes should be a list of int.")
    if not all(b > 0 for b in bucket_batch_sizes):
        raise ValueError("bucket_batch_sizes should be a list of positive numbers.")


def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes, element_length_function=None,
                           pad_info=None, pad_to_bucket_boundary=False, drop_remainder=False):
    """Rows grouped by length into buckets [0, b0), [b0, b1), ..., [b_last, inf) and batched with
    each bucket's batch size; a bucket emits a batch when full, and what is left at the end of the
    epoch in bucket order (unless drop_remainder). The length is element_length_function(*column_names
    columns), or the first dimension of the one column named."""
    names = list(self.get_col_names())
    _check_bucket_arguments(column_names, bucket_boundaries, bucket_batch_sizes, element_length_function,
                            pad_to_bucket_boundary, drop_remainder)
    for c in column_names:
        if c not in names:
            raise ValueError("Invalid column_names, column name: '%s' does not exist in the dataset columns %s."
                             % (c, names))
    if pad_info is not None:
        _check_pad_info(names, pad_info)
    picked = [names.index(c) for c in column_names]

    def length(row):
        if element_length_function is None:
            value = np.asarray(row[picked[0]])
            if value.ndim == 0:
                raise RuntimeError("bucket_batch_by_length: column '%s' is a scalar, it has no length; give an "
                                   "element_length_function." % column_names[0])
            return value.shape[0]
        n = element_length_function(*[row[i] for i in picked])
        n = int(np.asarray(n))
        if n < 0:
            raise RuntimeError("bucket_batch_by_length: element_length_function returned a negative length %d."
                               % n)
        return n

    def spec_for(name, bucket):
        """pad_info's entry for name; pad_to_bucket_boundary turns the None entries of its shape list
        (not a None shape, which pads to the batch's longest) into the bucket's boundary - 1."""
        shape, value = pad_info.get(name, (None, None))
        if pad_to_bucket_boundary and shape is not None and None in shape:
            if bucket == len(bucket_boundaries):
                raise RuntimeError("Invalid data, requested to pad to bucket boundary, element falls in last "
                                   "bucket.")
            shape = [bucket_boundaries[bucket] - 1 if d is None else d for d in shape]
        return shape, value

    def make_batch(rows, bucket):
        columns = list(zip(*rows))
        out = []
        for name, column in zip(names, columns):
            if pad_info is not None and (not pad_info or name in pad_info):
                column = _pad_column(name, column, spec_for(name, bucket))
            column = [np.asarray(r) for r in column]
            if len({(r.shape, r.dtype.kind) for r in column}) > 1:
                raise RuntimeError("bucket_batch_by_length: column '%s' has rows of shapes %s in one batch; "
                                   "give pad_info to pad them." % (name, sorted({r.shape for r in column})))
            out.append(np.stack(column))
        return tuple(out)

    def start():
        buckets = [[] for _ in bucket_batch_sizes]
        for row in _rows(self):
            n = length(row)
            b = sum(1 for x in bucket_boundaries if n >= x)
            buckets[b].append(tuple(row))
            if len(buckets[b]) == bucket_batch_sizes[b]:
                yield make_batch(buckets[b], b)
                buckets[b] = []
        if not drop_remainder:
            for b, rows in enumerate(buckets):
                if rows:
                    yield make_batch(rows, b)

    return _derived(_Source(start), names)


for _name, _fn in [("padded_batch", padded_batch), ("batch", batch),
                   ("bucket_batch_by_length", bucket_batch_by_length)]:
    setattr(_Dataset, _name, _fn)
    for _cls in (_ds.NumpySlicesDataset, _ds.GeneratorDataset, _ds.MnistDataset):
        if _name in _cls.__dict__:
            setattr(_cls, _name, _fn)

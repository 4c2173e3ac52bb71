"""Dataset operations the C++ pipeline lacks: skip, filter, project, rename, concat (and +), zip,
split, apply, and DatasetIterator.stop. Each new dataset is a GeneratorDataset over its parents' rows
(read again on every epoch), so batch / map / shuffle / repeat / take apply to it as to any other."""
import builtins
import itertools

import numpy as np

import mindspore.dataset as _ds

__all__ = ["zip"]

_Dataset = _ds.Dataset


def _type_name(value):
    return type(value).__name__


def _rows(dataset):
    """The rows of one epoch of dataset, as tuples of NumPy arrays."""
    return dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)


def _derived(source, column_names):
    return _ds.GeneratorDataset(source, column_names=list(column_names), shuffle=False)


class _Source:
    """A generator function for GeneratorDataset: calling it starts one epoch."""

    def __init__(self, start):
        self._start = start

    def __call__(self):
        for row in self._start():
            yield tuple(row)


def _check_count(who, count):
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError("Argument count with value %s is not of type [<class 'int'>], but got %s."
                        % (count, type(count)))
    if count < 0 or count > 2147483647:
        raise ValueError("Input count is not within the required interval of [0, 2147483647].")
    return count


def skip(self, count):
    """The rows after the first count."""
    _check_count("skip", count)
    return _derived(_Source(lambda: itertools.islice(_rows(self), count, None)), self.get_col_names())


def filter(self, predicate, input_columns=None, num_parallel_workers=None):  # noqa: A001
    """The rows for which predicate(*columns) is true (columns: input_columns, or all)."""
    if not callable(predicate):
        raise TypeError("Argument predicate with value %s is not callable." % (predicate,))
    names = self.get_col_names()
    if input_columns is None:
        picked = list(range(len(names)))
    else:
        columns = [input_columns] if isinstance(input_columns, str) else list(input_columns)
        for c in columns:
            if c not in names:
                raise ValueError("Invalid input_columns, column name: '%s' does not exist in the dataset "
                                 "columns %s." % (c, names))
        picked = [names.index(c) for c in columns]

    def start():
        for row in _rows(self):
            keep = predicate(*[row[i] for i in picked])
            if bool(np.asarray(keep)):
                yield tuple(row)

    return _derived(_Source(start), names)


def project(self, columns):
    """Only the named columns, in the order given."""
    columns = [columns] if isinstance(columns, str) else list(columns)
    names = self.get_col_names()
    for c in columns:
        if not isinstance(c, str):
            raise TypeError("Argument columns with value %s is not of type str." % (c,))
        if c not in names:
            raise RuntimeError("Invalid column, column name: '%s' does not exist in the dataset columns "
                               "%s." % (c, names))
    picked = [names.index(c) for c in columns]
    return _derived(_Source(lambda: (tuple(row[i] for i in picked) for row in _rows(self))), columns)


def rename(self, input_columns, output_columns):
    """The same rows with columns input_columns named output_columns."""
    inputs = [input_columns] if isinstance(input_columns, str) else list(input_columns)
    outputs = [output_columns] if isinstance(output_columns, str) else list(output_columns)
    if len(inputs) != len(outputs):
        raise ValueError("Number of column in input_columns and output_columns is not equal.")
    names = list(self.get_col_names())
    for old, new in builtins.zip(inputs, outputs):
        if old not in names:
            raise RuntimeError("Invalid column, column name: '%s' does not exist in the dataset columns "
                               "%s." % (old, names))
        names[names.index(old)] = new
    return _derived(_Source(lambda: (tuple(row) for row in _rows(self))), names)


def concat(self, datasets):
    """The rows of self followed by those of each dataset (the same columns)."""
    if not isinstance(datasets, (list, _Dataset)):
        raise TypeError("Argument datasets with value %s is not of type [<class 'list'>, <class 'Dataset'>], but "
                        "got %s." % (datasets, type(datasets)))
    others = [datasets] if isinstance(datasets, _Dataset) else list(datasets)
    for d in others:
        if not isinstance(d, _Dataset):
            raise TypeError("Invalid datasets, expected Dataset object or list of Dataset, but got %s."
                            % _type_name(d))
    names = self.get_col_names()
    parts = [self] + others

    def start():
        # MindSpore's ConcatOp: every dataset must have the same columns, and each column the
        # same type and rank as in the first row read.
        first = None
        for d in parts:
            if d.get_col_names() != names:
                raise RuntimeError("Invalid columns, the column names of the datasets to concatenate should be the "
                                   "same, but got %s and %s." % (names, d.get_col_names()))
            for row in _rows(d):
                row = tuple(row)
                signature = [(np.asarray(c).dtype.kind, np.asarray(c).dtype.itemsize, np.ndim(c)) for c in row]
                if first is None:
                    first = signature
                elif signature != first:
                    raise RuntimeError("Invalid datatype or rank, the data type and rank of each column of the "
                                       "datasets to concatenate should be the same, but got %s and %s."
                                       % ([(np.asarray(c).dtype.name, np.ndim(c)) for c in row], first))
                yield row

    return _derived(_Source(start), names)


def _zip_datasets(self, datasets):
    """Rows joined side by side, as long as the shortest dataset; column names must differ."""
    others = [datasets] if isinstance(datasets, _Dataset) else list(datasets)
    for d in others:
        if not isinstance(d, _Dataset):
            raise TypeError("Invalid datasets, expected Dataset object or tuple of Dataset, but got %s."
                            % _type_name(d))
    parts = [self] + others
    names = []
    for d in parts:
        for n in d.get_col_names():
            if n in names:
                raise RuntimeError("Invalid data, duplicate column '%s' already exists when zipping "
                                   "datasets. Check the datasets' column names." % n)
            names.append(n)

    def start():
        iterators = [iter(_rows(d)) for d in parts]
        while True:
            row = []
            for it in iterators:
                try:
                    row.extend(next(it))
                except StopIteration:
                    return
            yield tuple(row)

    return _derived(_Source(start), names)


def zip(datasets):  # noqa: A001
    """mindspore.dataset.zip: the rows of a tuple of datasets joined side by side."""
    if not isinstance(datasets, tuple) or len(datasets) < 1:
        raise TypeError("Invalid datasets, expected tuple of Dataset, but got %s." % _type_name(datasets))
    return _zip_datasets(datasets[0], list(datasets[1:]))


def split(self, sizes, randomize=True):
    """Datasets of the given sizes (counts, or fractions that sum to 1) over self's rows, shuffled
    first when randomize."""
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError("Argument sizes with value %s is not of type [list]." % (sizes,))
    rows = [tuple(r) for r in _rows(self)]
    total = len(rows)
    if all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError("Invalid sizes, all sizes should be greater than 0.")
        if sum(sizes) != total:
            raise RuntimeError("Invalid sizes, sum of split sizes %d is not equal to dataset size %d."
                               % (sum(sizes), total))
        counts = list(sizes)
    elif all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
            raise ValueError("Invalid sizes, fractions should be in (0, 1] and sum to 1, but got %s."
                             % (sizes,))
        counts = [int(round(s * total)) for s in sizes]
        counts[-1] += total - sum(counts)
    else:
        raise TypeError("Invalid sizes, sizes should be all ints or all floats, but got %s." % (sizes,))
    order = list(range(total))
    if randomize:
        np.random.shuffle(order)
    names = self.get_col_names()
    out = []
    start = 0
    for c in counts:
        chosen = [rows[i] for i in order[start:start + c]]
        start += c
        out.append(_derived(_Source(lambda chosen=chosen: iter(chosen)), names))
    return out


def apply(self, apply_func):
    """apply_func(self), which must return a Dataset: a pipeline built by a function."""
    if not callable(apply_func):
        raise TypeError("apply_func is not a function.")
    dataset = apply_func(self)
    if not isinstance(dataset, _Dataset):
        raise TypeError("apply_func must return a dataset.")
    return dataset


def _add(self, other):
    return concat(self, other)


for _name, _fn in [("skip", skip), ("filter", filter), ("project", project), ("rename", rename),
                   ("concat", concat), ("zip", _zip_datasets), ("split", split), ("__add__", _add),
                   ("apply", apply)]:
    setattr(_Dataset, _name, _fn)
    for _cls in (_ds.NumpySlicesDataset, _ds.GeneratorDataset, _ds.MnistDataset):
        if _name not in _cls.__dict__:
            setattr(_cls, _name, _fn)
_ds.zip = zip


def _stop(self):
    """Stops iterating (the rows left are dropped); accepted for MindSpore's API."""
    return None


if not hasattr(_ds.DatasetIterator, "stop"):
    _ds.DatasetIterator.stop = _stop


_cpp_take = _Dataset.take


def _take(self, count=-1):
    """The first count rows (-1: all of them)."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError("Argument count with value %s is not of type [<class 'int'>], but got %s."
                        % (count, type(count)))
    if count != -1 and not 0 < count <= 2147483647:
        raise ValueError("Input count is not within the required interval of [-1, 2147483647] "
                         "(0 excluded), but got %d." % count)
    return _cpp_take(self, count)


_Dataset.take = _take

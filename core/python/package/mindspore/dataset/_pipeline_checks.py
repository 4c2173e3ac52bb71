"""MindSpore's checks of batch, repeat and shuffle arguments (its check_batch, check_repeat and
check_shuffle), in its words, before the C++ pipeline takes them: a float, a bool or a str count
is a TypeError naming the argument, not a binding's message."""
import inspect

import mindspore.dataset as _ds
import mindspore.dataset._padded_batch  # noqa: F401  (its batch, which takes pad_info, is the one checked here)
from mindspore.dataset._dataset_checks import INT32_MAX, check_columns, check_value, type_check

_Dataset = _ds.Dataset
_batch = _Dataset.batch
_repeat = _Dataset.repeat
_shuffle = _Dataset.shuffle


def _check_workers(num):
    type_check(num, (int,), "num_parallel_workers")
    if num < 1:
        raise ValueError("num_parallel_workers exceeds the boundary between 1 and %d!" % INT32_MAX)


def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, per_batch_map=None,
          input_columns=None, output_columns=None, python_multiprocessing=False, max_rowsize=None,
          pad_info=None, **kwargs):
    """Dataset.batch after MindSpore's check_batch."""
    if not (isinstance(batch_size, int) or callable(batch_size)) or isinstance(batch_size, bool):
        raise TypeError("batch_size should either be an int or a callable.")
    if isinstance(batch_size, int):
        check_value(batch_size, 1, INT32_MAX, "batch_size")
    if num_parallel_workers is not None:
        _check_workers(num_parallel_workers)
    type_check(drop_remainder, (bool,), "drop_remainder")
    if input_columns is not None and per_batch_map is None:
        raise ValueError("input_columns can be specified only when per_batch_map is set.")
    if input_columns is not None:
        check_columns(input_columns, "input_columns")
        columns = [input_columns] if isinstance(input_columns, str) else input_columns
        if len(columns) != len(inspect.signature(per_batch_map).parameters) - 1:
            raise ValueError("The signature of per_batch_map should match with input columns.")
    if output_columns is not None:
        check_columns(output_columns, "output_columns")
    if python_multiprocessing is not None:
        type_check(python_multiprocessing, (bool,), "python_multiprocessing")
    return _batch(self, batch_size, drop_remainder, num_parallel_workers, per_batch_map, input_columns,
                  output_columns, python_multiprocessing, max_rowsize, pad_info, **kwargs)


def repeat(self, count=None):
    """Dataset.repeat after MindSpore's check_repeat."""
    type_check(count, (int, type(None)), "repeat")
    if isinstance(count, int) and ((count <= 0 and count != -1) or count > INT32_MAX):
        raise ValueError("count should be either -1 or positive integer, range[1, INT32_MAX].")
    return _repeat(self, count)


def shuffle(self, buffer_size):
    """Dataset.shuffle after MindSpore's check_shuffle."""
    type_check(buffer_size, (int,), "buffer_size")
    check_value(buffer_size, 2, INT32_MAX, "buffer_size")
    return _shuffle(self, buffer_size)


for _name, _fn in (("batch", batch), ("repeat", repeat), ("shuffle", shuffle)):
    _fn.__doc__ = (getattr(_Dataset, _name).__doc__ or "") + "\n" + _fn.__doc__
    setattr(_Dataset, _name, _fn)
    for _cls in (_ds.NumpySlicesDataset, _ds.GeneratorDataset, _ds.MnistDataset):
        if _name in _cls.__dict__:
            setattr(_cls, _name, _fn)

"""MindSpore's checks of NumpySlicesDataset's and GeneratorDataset's arguments, in its words, before
the C++ constructors read the data: column_names (a non-empty str or list of distinct non-empty
strs, as many as the data's columns), empty data, and the num_shards / shard_id ranges."""
import numpy as np

import mindspore.dataset as _ds
from mindspore.dataset._dataset_checks import check_columns, check_shards, type_check

_cpp_numpy_slices_init = _ds.NumpySlicesDataset.__init__
_cpp_generator_init = _ds.GeneratorDataset.__init__


def _numpy_slices_init(self, data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                       sampler=None, num_shards=None, shard_id=None):
    type_check(data, (list, tuple, dict, np.ndarray), "data")
    if data is None or len(data) == 0:  # pylint: disable=len-as-condition
        raise ValueError("Argument data cannot be empty")
    if isinstance(data, tuple):
        type_check(data[0], (list, np.ndarray), "data[0]")
    if column_names is not None:
        check_columns(column_names, "column_names")
        given = 1 if isinstance(column_names, str) else len(column_names)
        if isinstance(data, (dict, tuple)):
            if given != len(data):
                raise ValueError("Num of input column names is {0}, but required is {1}.".format(given, len(data)))
        elif given != 1:
            raise ValueError("Num of input column names is {0}, but required is {1} as data is list.".format(given, 1))
    check_shards(num_shards, shard_id)
    _cpp_numpy_slices_init(self, data, column_names, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                           shard_id)


def _generator_init(self, source, column_names=None, column_types=None, schema=None, num_samples=None,
                    num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                    python_multiprocessing=True, max_rowsize=6):
    if column_names is not None:
        check_columns(column_names, "column_names")
    check_shards(num_shards, shard_id)
    _cpp_generator_init(self, source, column_names, column_types, schema, num_samples, num_parallel_workers, shuffle,
                        sampler, num_shards, shard_id, python_multiprocessing, max_rowsize)


_numpy_slices_init.__doc__ = _cpp_numpy_slices_init.__doc__
_generator_init.__doc__ = _cpp_generator_init.__doc__
_ds.NumpySlicesDataset.__init__ = _numpy_slices_init
_ds.GeneratorDataset.__init__ = _generator_init

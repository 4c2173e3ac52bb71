"""Dataset.map's Python signature and MindSpore 2.x's checks of it: column_order was deleted from
map (a ValueError pointing at project), network operators (Cells, Primitives) are refused, and
the keyword arguments MindSpore takes (python_multiprocessing, max_rowsize, cache, callbacks,
offload) are checked and accepted; the pipeline runs in this process, so they change no row."""
import mindspore.dataset as _ds
from mindspore.dataset._dataset_checks import check_columns as _check_columns, type_check as _type_check

_Dataset = _ds.Dataset
_cpp_map = _Dataset.map

_COLUMN_ORDER_DELETED = (
    "The parameter 'column_order' had been deleted in map operation. "
    "Please use '.project' operation instead.\n"
    ">> # Usage of old api:\n"
    ">> dataset = dataset.map(operations=PyFunc,\n"
    ">>                       input_columns=[\"column_a\"],\n"
    ">>                       output_columns=[\"column_b\", \"column_c\"],\n"
    ">>                       column_order=[\"column_b\", \"column_c\"])\n"
    ">> # Usage of new api:\n"
    ">> dataset = dataset.map(operations=PyFunc,\n"
    ">>                       input_columns=[\"column_a\"],\n"
    ">>                       output_columns=[\"column_b\", \"column_c\"])\n"
    ">> dataset = dataset.project([\"column_b\", \"column_c\"])")

_KWARGS = ("python_multiprocessing", "max_rowsize", "cache", "callbacks", "offload")


def _check_workers(num):
    _type_check(num, (int,), "num_parallel_workers")
    if num < 1:
        raise ValueError("num_parallel_workers exceeds the boundary between 1 and %d!" % 2147483647)


def map(self, operations, input_columns=None, output_columns=None, column_order=None,  # noqa: A001
        num_parallel_workers=None, **kwargs):
    """Applies operations, in order, to input_columns (all columns when None); their outputs are
    named output_columns (input_columns when None)."""
    if column_order is not None:
        raise ValueError(_COLUMN_ORDER_DELETED)
    unknown = sorted(set(kwargs) - set(_KWARGS))
    if unknown:
        raise TypeError("map() got an unexpected keyword argument '%s'" % unknown[0])
    from mindspore import nn, ops
    for item in operations if isinstance(operations, list) else [operations]:
        if isinstance(item, (nn.Cell, ops.Primitive)):
            raise ValueError("Input operations should not contain network computing operator like in "
                             "mindspore.nn or mindspore.ops, got operation: ", str(item))
    if num_parallel_workers is not None:
        _check_workers(num_parallel_workers)
    _type_check(kwargs.get("python_multiprocessing", False), (bool,), "python_multiprocessing")
    if kwargs.get("offload") is not None:
        _type_check(kwargs["offload"], (bool,), "offload")
    for name, columns in (("input_columns", input_columns), ("output_columns", output_columns)):
        if columns is not None:
            _check_columns(columns, name)
    return _cpp_map(self, operations, input_columns, output_columns, num_parallel_workers,
                    kwargs.get("python_multiprocessing", False))


_Dataset.map = map
for _cls in (_ds.NumpySlicesDataset, _ds.GeneratorDataset, _ds.MnistDataset):
    if "map" in _cls.__dict__:
        _cls.map = map

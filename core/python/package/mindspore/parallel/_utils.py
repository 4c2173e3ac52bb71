"""The parallel settings as the library reads them (mindspore.parallel._utils, whose helpers some
scripts import): the mode, whether gradients are averaged, the number of ranks and this rank."""
from mindspore.parallel import _auto_parallel_context as _apc


def _get_parallel_mode():
    return _apc.get_auto_parallel_context("parallel_mode")


def _get_gradients_mean():
    return _apc.get_auto_parallel_context("gradients_mean")


def _is_data_parallel():
    return _get_parallel_mode() in (_apc.ParallelMode.DATA_PARALLEL, _apc.ParallelMode.HYBRID_PARALLEL)


def _get_device_num():
    """1 stand-alone; else device_num when set, else the world's size (as MindSpore)."""
    if _get_parallel_mode() == _apc.ParallelMode.STAND_ALONE:
        return 1
    if _apc._device_num_was_set():
        return _apc.get_auto_parallel_context("device_num")
    from mindspore.communication.management import get_group_size
    return get_group_size()


def _get_global_rank():
    from mindspore.communication.management import GlobalComm, get_rank
    if GlobalComm.INITED:
        return get_rank()
    return _apc.get_auto_parallel_context("global_rank")


def _get_parameter_broadcast():
    return _apc.get_auto_parallel_context("parameter_broadcast")

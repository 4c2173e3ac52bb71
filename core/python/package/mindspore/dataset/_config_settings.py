"""mindspore.dataset.config's pipeline settings beside the seed: prefetch size, default number of
parallel workers and shared memory for Python multiprocessing, with MindSpore's defaults and checks.
gradstep's pipeline runs in the script's process, one row after another, so these settings tune
nothing here; they are kept so that a script reading back what it set gets it, as in MindSpore."""
import mindspore.dataset as _ds

_INT32_MAX = 2147483647
_settings = {"prefetch_size": 16, "num_parallel_workers": 8, "enable_shared_mem": True}


def _positive_int32(value, name, message):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("%s isn't of type int." % name)
    if value <= 0 or value > _INT32_MAX:
        raise ValueError(message)
    return value


def set_prefetch_size(size):
    """Sets the buffer queue size between dataset operations."""
    _settings["prefetch_size"] = _positive_int32(
        size, "size", "size is not within the required range (0, INT32_MAX(2147483647)].")


def get_prefetch_size():
    """The buffer queue size between dataset operations (16 unless set)."""
    return _settings["prefetch_size"]


def set_num_parallel_workers(num):
    """Sets the default number of parallel workers of each dataset operation."""
    _settings["num_parallel_workers"] = _positive_int32(
        num, "num", "Number of parallel workers given is not within the required range (0, INT32_MAX(2147483647)].")


def get_num_parallel_workers():
    """The default number of parallel workers of each dataset operation (8 unless set)."""
    return _settings["num_parallel_workers"]


def set_enable_shared_mem(enable):
    """Sets whether Python multiprocessing passes rows through shared memory."""
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    _settings["enable_shared_mem"] = enable


def get_enable_shared_mem():
    """Whether Python multiprocessing passes rows through shared memory (True unless set)."""
    return _settings["enable_shared_mem"]


for _name in ("set_prefetch_size", "get_prefetch_size", "set_num_parallel_workers", "get_num_parallel_workers",
              "set_enable_shared_mem", "get_enable_shared_mem"):
    setattr(_ds.config, _name, globals()[_name])

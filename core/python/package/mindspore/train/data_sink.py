"""mindspore.data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None): a
function that, on each call, runs fn on the next sink_size batches of the dataset (starting over
at its end, as a sunk dataset repeats) and returns fn's result for the last of them."""
import mindspore
from mindspore.common.jit_config import JitConfig

__all__ = ["data_sink"]


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    if not callable(fn):
        raise TypeError("The argument 'fn' should be a Python function, but got %s." % type(fn).__name__)
    from mindspore.dataset import Dataset
    if not isinstance(dataset, Dataset):
        raise TypeError("The argument 'dataset' should be a Dataset, but got %s." % type(dataset).__name__)
    if isinstance(sink_size, bool) or not isinstance(sink_size, int) or sink_size <= 0:
        raise ValueError("The 'sink_size' must be a positive int, but got %s." % (sink_size,))
    if jit_config is not None and not isinstance(jit_config, JitConfig):
        raise TypeError("The 'jit_config' must be a JitConfig, but got %s." % type(jit_config).__name__)
    state = {"iterator": None}

    def next_batch():
        for _ in range(2):
            if state["iterator"] is None:
                state["iterator"] = iter(dataset.create_tuple_iterator())
            try:
                return next(state["iterator"])
            except StopIteration:
                state["iterator"] = None
        raise ValueError("For 'data_sink', the dataset yields no batch.")

    def sink_process(*args, **kwargs):
        out = None
        for _ in range(sink_size):
            out = fn(*next_batch())
        return out

    return sink_process


if not hasattr(mindspore, "data_sink"):
    mindspore.data_sink = data_sink
mindspore.train.data_sink = data_sink

"""Host reads of tensor values for the package's Cells, graph-mode aware."""
import numpy as np

import mindspore
from mindspore import Tensor
from mindspore.ops import _functional_util as _U


def known_values(x):
    """x's values as a NumPy array, or None while a graph-mode function compiles and x is only
    known when the graph runs: argument checks on values are then skipped, the computation itself
    being made of tensor ops."""
    if not isinstance(x, Tensor):
        return np.asarray(x)
    if mindspore._jit_tracing():
        try:
            return x.asnumpy()
        except TypeError:
            return None
    return x.asnumpy()


def deciding_values(op, x):
    """x's values where they decide what op computes (not only checks): while a graph-mode
    function compiles with x not yet known, the body runs in Python instead (as for the ops whose
    output shape depends on values)."""
    return _U.shape_deciding_values(op, x)

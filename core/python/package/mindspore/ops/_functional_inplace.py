"""mindspore.ops' row updates along the first axis (inplace_update, inplace_add, inplace_sub) and
inplace_index_add, over the scatter functions of _functional_array.py (so gradients flow to both x
and v). Despite the names they return a new Tensor; inplace_index_add also writes its result into a
Parameter `var`, as MindSpore's kernel updates the Parameter."""
import numpy as np

import mindspore.ops as ops
from mindspore import Parameter, Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_array import _tensor_scatter
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _row_indices(op, x, v, indices):
    """indices (int, tuple of ints or 1-D int Tensor) as a (k, 1) int64 Tensor, checked against x and v."""
    U.check_tensor(op, "x", x)
    U.check_tensor(op, "v", v)
    if isinstance(indices, Tensor):
        if indices.dtype not in (mstype.int32, mstype.int64):
            raise TypeError("For '%s', the dtype of 'indices' must be int32 or int64, but got %s." % (op, indices.dtype))
        rows = U.numpy_of(indices).reshape(-1)
    elif isinstance(indices, bool) or not isinstance(indices, (int, tuple, list)) or (
            isinstance(indices, (tuple, list)) and not all(isinstance(i, int) and not isinstance(i, bool)
                                                           for i in indices)):
        raise TypeError("For '%s', the 'indices' must be an int or a tuple of ints, but got %s."
                        % (op, type(indices).__name__))
    else:
        rows = np.asarray([indices] if isinstance(indices, int) else list(indices), np.int64).reshape(-1)
    if v.ndim != x.ndim:
        raise ValueError("For '%s', the rank of 'v' must be equal to the rank of 'x' (%d), but got %d."
                         % (op, x.ndim, v.ndim))
    if isinstance(indices, int) and v.shape[0] != 1 or not isinstance(indices, int) and v.shape[0] != len(rows):
        raise ValueError("For '%s', the size of 'indices' (%d) must be equal to v.shape[0], but got %d."
                         % (op, len(rows), v.shape[0]))
    if tuple(v.shape[1:]) != tuple(x.shape[1:]):
        raise ValueError("For '%s', the shape of 'v' must be equal to the shape of 'x' except the first "
                         "dimension, but got x: %s, v: %s." % (op, tuple(x.shape), tuple(v.shape)))
    n = x.shape[0]
    if ((rows < -n) | (rows >= n)).any():
        raise ValueError("For '%s', the value of 'indices' must be in range [%d, %d), but got %s."
                         % (op, -n, n, rows.tolist()))
    return U.const((rows % n).reshape(-1, 1), mstype.int64)


@export(_F)
def inplace_update(x, v, indices):
    idx = _row_indices("InplaceUpdate", x, v, indices)
    return _tensor_scatter("InplaceUpdate", x, idx, v, "update")


@export(_F)
def inplace_add(x, v, indices):
    idx = _row_indices("InplaceAdd", x, v, indices)
    return _tensor_scatter("InplaceAdd", x, idx, v, "add")


@export(_F)
def inplace_sub(x, v, indices):
    idx = _row_indices("InplaceSub", x, v, indices)
    return _tensor_scatter("InplaceSub", x, idx, v, "sub")


@export(_F)
def inplace_index_add(var, indices, updates, axis):
    if not isinstance(var, Parameter):
        raise TypeError("For 'InplaceIndexAdd', the 'var' must be a Parameter, but got %s." % type(var).__name__)
    out = ops.index_add(var, indices, updates, axis)
    ops.assign(var, out)
    return out


@export(_F)
def sparse_segment_mean(x, indices, segment_ids):
    """Row i: the mean of x[indices[j]] over the j with segment_ids[j] == i (0 for an empty segment);
    segment_ids[-1] + 1 rows."""
    from mindspore.ops._functional_array import _scatter_rows
    op = "SparseSegmentMean"
    U.check_tensor(op, "x", x)
    U.check_tensor(op, "indices", indices)
    U.check_tensor(op, "segment_ids", segment_ids)
    if x.dtype not in U._ALL_FLOATS:
        raise TypeError("For '%s', the dtype of 'x' must be float16, float32 or float64, but got %s." % (op, x.dtype))
    if indices.ndim != 1 or segment_ids.ndim != 1 or indices.shape[0] != segment_ids.shape[0]:
        raise ValueError("For '%s', 'indices' and 'segment_ids' must be 1-D of the same size, but got %s and %s."
                         % (op, tuple(indices.shape), tuple(segment_ids.shape)))
    seg = U.numpy_of(segment_ids)
    if seg.size and (np.diff(seg) < 0).any():
        raise ValueError("For '%s', 'segment_ids' must be sorted." % op)
    idx = U.numpy_of(indices)
    if ((idx < 0) | (idx >= x.shape[0])).any():
        raise ValueError("For '%s', the values of 'indices' must be in range [0, %d)." % (op, x.shape[0]))
    n = int(seg[-1]) + 1 if seg.size else 0
    rows = ops.gather(x, U.const(idx.astype(np.int64), mstype.int64), 0)
    seg_t = U.const(seg.astype(np.int64), mstype.int64)
    sums = _scatter_rows(n, seg_t, rows)
    counts = np.bincount(seg.astype(np.int64), minlength=n).astype(np.float64)
    shape = (n,) + (1,) * (x.ndim - 1)
    return sums / U.const(np.maximum(counts, 1).reshape(shape), x.dtype)

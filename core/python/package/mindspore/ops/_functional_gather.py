"""ops.gather with batch_dims: the core's Gather op takes batch_dims=0; for b > 0 the leading b axes
of input_params and input_indices are paired, each batch gathering from its own slice. It runs as one
plain gather: the gathered axis is moved next to the merged batch axis, both flattened together, and
each batch's indices offset by its row, so the result is differentiable like any gather. Shape:
input_params.shape[:axis] + input_indices.shape[batch_dims:] + input_params.shape[axis + 1:]."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"
_core_gather = ops.gather


@export(_F, force=True)
def gather(input_params, input_indices, axis, batch_dims=0):
    if isinstance(batch_dims, bool) or not isinstance(batch_dims, int) or batch_dims == 0:
        return _core_gather(input_params, input_indices, axis, batch_dims)
    op = "Gather"
    U.check_tensor(op, "input_params", input_params)
    U.check_tensor(op, "input_indices", input_indices)
    b = batch_dims + input_indices.ndim if batch_dims < 0 else batch_dims
    ax = U.norm_axis(op, axis, input_params.ndim)
    if not 0 < b <= input_indices.ndim or ax < b:
        raise ValueError("For '%s', 'batch_dims' must be in [0, %d] and not exceed 'axis' (%d), but got %d."
                         % (op, input_indices.ndim, ax, batch_dims))
    batch = tuple(input_params.shape[:b])
    if tuple(input_indices.shape[:b]) != batch:
        raise ValueError("For '%s', the first %d dimensions of 'input_params' %s and 'input_indices' %s must be "
                         "equal." % (op, b, tuple(input_params.shape), tuple(input_indices.shape)))
    n = int(np.prod(batch, dtype=np.int64))
    size = input_params.shape[ax]
    pre = tuple(input_params.shape[b:ax])
    post = tuple(input_params.shape[ax + 1:])
    rest_idx = tuple(input_indices.shape[b:])
    perm = tuple(range(b)) + (ax,) + tuple(range(b, ax)) + tuple(range(ax + 1, input_params.ndim))
    table = ops.reshape(ops.transpose(input_params, perm), (n * size,) + pre + post)
    idx = ops.reshape(input_indices.astype(mstype.int64), (n, -1))
    idx = idx + U.const((np.arange(n, dtype=np.int64) * size).reshape(n, 1), mstype.int64)
    out = ops.gather(table, ops.reshape(idx, (-1,)), 0)
    out = ops.reshape(out, batch + rest_idx + pre + post)
    # batch + rest_idx + pre + post  ->  batch + pre + rest_idx + post
    nb, ni, npre = len(batch), len(rest_idx), len(pre)
    order = (tuple(range(nb)) + tuple(range(nb + ni, nb + ni + npre)) + tuple(range(nb, nb + ni))
             + tuple(range(nb + ni + npre, out.ndim)))
    return ops.transpose(out, order) if order != tuple(range(out.ndim)) else out

"""Array functions of mindspore.ops (MindSpore 2.2 names) that reshape, index, scatter and tile:
rot90, reverse(_sequence), sequence_mask, slice / strided_slice, expand, diagflat,
diagonal_scatter, index_fill, dsplit, combinations, cartesian_prod, tril/triu_indices, histc,
quantile, the scatter_* / scatter_nd_* / tensor_scatter_* reductions, unsorted segment
max/min/prod, space_to_batch_nd / batch_to_space_nd, mirror_pad, padding, top_k, unfold / fold
and the window functions.

Values move with gathers, selects and segment sums over constant index bookkeeping (NumPy), so
the results stay differentiable in the data; histc and nanquantile are NumPy (no gradient)."""
import itertools
import math as _math

import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _t(op, x, name="input"):
    return U.check_tensor(op, name, x)


def _idx(values):
    return U.const(np.asarray(values, np.int64).reshape(-1), mstype.int64)


def _prim(name, *args, **kwargs):
    from mindspore.ops import operations as P
    return getattr(P, name)(*args, **kwargs)


@export(_F)
def rot90(input, k, dims):
    _t("rot90", input)
    k = U.check_int("rot90", "k", k)
    if len(dims) != 2:
        raise ValueError("For 'rot90', the 'dims' must have 2 elements, but got %d." % len(dims))
    d0 = U.norm_axis("rot90", dims[0], input.ndim, "dims")
    d1 = U.norm_axis("rot90", dims[1], input.ndim, "dims")
    if d0 == d1:
        raise ValueError("For 'rot90', the elements of 'dims' must be different, but got %s." % (tuple(dims),))
    k %= 4
    perm = list(range(input.ndim))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    if k == 1:
        return ops.transpose(ops.flip(input, (d1,)), tuple(perm))
    if k == 2:
        return ops.flip(input, (d0, d1))
    if k == 3:
        return ops.flip(ops.transpose(input, tuple(perm)), (d1,))
    return input


@export(_F)
def reverse(x, axis):
    _t("ReverseV2", x, "x")
    return ops.flip(x, tuple(axis))


@export(_F)
def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Reverses the first seq_lengths[b] entries along seq_dim of each slice b along batch_dim."""
    _t("ReverseSequence", x, "x")
    sd = U.norm_axis("ReverseSequence", seq_dim, x.ndim, "seq_dim")
    bd = U.norm_axis("ReverseSequence", batch_dim, x.ndim, "batch_dim")
    if sd == bd:
        raise ValueError("For 'ReverseSequence', the 'seq_dim' and 'batch_dim' must be different, but both are %d." % sd)
    lengths = U.shape_deciding_values("reverse_sequence", seq_lengths).astype(np.int64).reshape(-1)
    n, b = x.shape[sd], x.shape[bd]
    if len(lengths) != b or np.any(lengths > n) or np.any(lengths < 0):
        raise ValueError("For 'ReverseSequence', 'seq_lengths' must have %d values in [0, %d], but got %s."
                         % (b, n, lengths.tolist()))
    pos = np.arange(n)[None, :]
    src = np.where(pos < lengths[:, None], lengths[:, None] - 1 - pos, pos)  # (batch, seq)
    shape = [1] * x.ndim
    shape[bd], shape[sd] = b, n
    order = np.transpose(src, (0, 1) if bd < sd else (1, 0)).reshape(shape)
    index = np.broadcast_to(order, tuple(x.shape))
    return ops.gather_elements(x, sd, U.const(np.ascontiguousarray(index), mstype.int64))


@export(_F)
def sequence_mask(lengths, maxlen=None):
    _t("SequenceMask", lengths, "lengths")
    if maxlen is None:
        n = int(np.max(U.shape_deciding_values("SequenceMask", lengths), initial=0))
    else:
        n = U.check_int("SequenceMask", "maxlen", maxlen, 0)
    steps = U.const(np.arange(n), lengths.dtype)
    return steps < ops.expand_dims(lengths, -1)


@export(_F)
def slice(input_x, begin, size):
    return _prim("Slice")(input_x, begin, size)


@export(_F)
def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    return _prim("StridedSlice", begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)(
        input_x, begin, end, strides)


@export(_F)
def expand(input_x, size):
    """input_x broadcast to size; -1 keeps that dimension."""
    _t("Expand", input_x, "input_x")
    size = U.shape_tuple("Expand", size, "size")
    lead = len(size) - input_x.ndim
    if lead < 0:
        raise ValueError("For 'Expand', the length of 'size' (%d) must be at least the rank of 'input_x' (%d)."
                         % (len(size), input_x.ndim))
    shape = tuple(input_x.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(size))
    return ops.broadcast_to(input_x, shape)


@export(_F)
def diagflat(input, offset=0):
    _t("diagflat", input)
    return ops.diag_embed(ops.reshape(input, (-1,)), offset)


@export(_F)
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """input with its (dim1, dim2) diagonal at offset replaced by src (src's last axis runs along
    the diagonal, as ops.diagonal returns it)."""
    _t("diagonal_scatter", input)
    _t("diagonal_scatter", src, "src")
    a = U.norm_axis("diagonal_scatter", dim1, input.ndim, "dim1")
    b = U.norm_axis("diagonal_scatter", dim2, input.ndim, "dim2")
    nd = input.ndim
    x = ops.moveaxis(input, (a, b), (nd - 2, nd - 1))
    expected = tuple(ops.diagonal(input, offset, a, b).shape)
    if tuple(src.shape) != expected:
        raise ValueError("For 'diagonal_scatter', the shape of 'src' must be %s, but got %s."
                         % (expected, tuple(src.shape)))
    out = ops.matrix_set_diag(x, src.astype(input.dtype), k=offset)
    return ops.moveaxis(out, (nd - 2, nd - 1), (a, b))


@export(_F)
def index_fill(x, axis, index, value):
    _t("IndexFill", x, "x")
    if isinstance(axis, Tensor):
        axis = int(U.shape_deciding_values("IndexFill", axis))
    ax = U.norm_axis("IndexFill", axis, x.ndim)
    idx = U.shape_deciding_values("index_fill", index).astype(np.int64).reshape(-1)
    n = x.shape[ax]
    if np.any(idx < -n) or np.any(idx >= n):
        raise ValueError("For 'IndexFill', the 'index' must be in [%d, %d), but got %s." % (-n, n, idx.tolist()))
    hit = np.zeros(n, bool)
    hit[idx % n] = True
    shape = [1] * x.ndim
    shape[ax] = n
    mask = ops.broadcast_to(U.const(hit.reshape(shape), mstype.bool_), tuple(x.shape))
    fill = value.astype(x.dtype) if isinstance(value, Tensor) else U.as_tensor(value, like=x)
    return ops.select(mask, ops.broadcast_to(fill, tuple(x.shape)), x)


@export(_F)
def dsplit(input, indices_or_sections):
    _t("dsplit", input)
    if input.ndim < 3:
        raise ValueError("For 'dsplit', the dimension of 'input' must be at least 3, but got %d." % input.ndim)
    return ops.tensor_split(input, indices_or_sections, 2)


@export(_F)
def combinations(input, r=2, with_replacement=False):
    _t("combinations", input)
    if input.ndim != 1:
        raise ValueError("For 'combinations', the dimension of 'input' must be 1, but got %d." % input.ndim)
    r = U.check_int("combinations", "r", r, 0)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = np.array(list(pick(range(input.shape[0]), r)), np.int64).reshape(-1, r)
    if rows.shape[0] == 0 or r == 0:
        return ops.zeros((0,) if r == 0 else (0, r), input.dtype)
    return ops.reshape(ops.gather(input, _idx(rows), 0), rows.shape)


@export(_F)
def cartesian_prod(*inputs):
    for i, t in enumerate(inputs):
        _t("cartesian_prod", t, "inputs[%d]" % i)
    if len(inputs) == 1:
        return inputs[0]
    grids = ops.meshgrid(*inputs, indexing="ij")
    return ops.stack([ops.reshape(g, (-1,)) for g in grids], 1)


def _tri_indices(op, row, col, offset, dtype, lower):
    row = U.check_int(op, "row", row, 0)
    col = U.check_int(op, "col", col, 0)
    offset = U.check_int(op, "offset", offset)
    if dtype not in (mstype.int32, mstype.int64):
        raise TypeError("For '%s', the 'dtype' must be int32 or int64, but got %s." % (op, dtype))
    idx = np.tril_indices(row, offset, col) if lower else np.triu_indices(row, offset, col)
    return U.const(np.stack(idx).reshape(2, -1), dtype)


@export(_F)
def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    return _tri_indices("TrilIndices", row, col, offset, dtype, True)


@export(_F)
def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    return _tri_indices("TriuIndices", row, col, offset, dtype, False)


@export(_F)
def histc(input, bins=100, min=0., max=0.):
    """Counts of input in `bins` equal bins over [min, max] (the data's range when both are 0);
    values outside are ignored. int32 counts (MindSpore 2.2); NumPy, no gradient."""
    _t("Histogram", input)
    bins = U.check_int("Histogram", "bins", bins, 1)
    U.check_number("Histogram", "min", min)
    U.check_number("Histogram", "max", max)
    a = U.shape_deciding_values("histc", input).astype(np.float64).reshape(-1)
    lo, hi = float(min), float(max)
    if lo > hi:
        raise ValueError("For 'Histogram', the 'min' must not be greater than 'max', but got %s and %s." % (lo, hi))
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1.0, hi + 1.0
    counts, _ = np.histogram(a[(a >= lo) & (a <= hi)], bins=bins, range=(lo, hi))
    return U.const(counts, mstype.int32)


def _quantile_q(op, q):
    if isinstance(q, Tensor):
        qs = U.shape_deciding_values(op, q).astype(np.float64)
    elif isinstance(q, (int, float)) and not isinstance(q, bool):
        qs = np.asarray(float(q))
    else:
        raise TypeError("For '%s', the 'q' must be a float or a Tensor, but got %s." % (op, type(q).__name__))
    if qs.ndim > 1:
        raise ValueError("For '%s', the 'q' must be a scalar or 1-D, but got %d dimensions." % (op, qs.ndim))
    if np.any(qs < 0) or np.any(qs > 1):
        raise ValueError("For '%s', the 'q' must be in [0, 1], but got %s." % (op, qs.tolist()))
    return qs


@export(_F)
def quantile(input, q, axis=None, keepdims=False):
    """Linear-interpolation quantiles (NumPy's default method) over a sort: differentiable."""
    _t("quantile", input)
    if input.dtype not in U._FLOATS:
        raise TypeError("For 'quantile', the dtype of 'input' must be float32 or float64, but got %s." % input.dtype)
    qs = _quantile_q("quantile", q)
    x = ops.reshape(input, (-1,)) if axis is None else input
    ax = 0 if axis is None else U.norm_axis("quantile", axis, input.ndim)
    s, _ = ops.sort(x, ax)
    n = x.shape[ax]
    pos = qs.reshape(-1) * (n - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, n - 1)
    frac = pos - lo
    below = ops.gather(s, _idx(lo), ax)
    above = ops.gather(s, _idx(hi), ax)
    shape = [1] * x.ndim
    shape[ax] = len(pos)
    w = U.const(frac.reshape(shape), x.dtype)
    out = below + (above - below) * w  # q along ax
    out = ops.moveaxis(out, ax, 0)  # q first, as MindSpore
    if keepdims:
        keep = [1] * input.ndim if axis is None else list(input.shape)
        if axis is not None:
            keep[ax] = 1
        out = ops.reshape(out, (len(pos),) + tuple(keep))
    return ops.reshape(out, tuple(out.shape[1:])) if qs.ndim == 0 else out


@export(_F)
def nanquantile(input, q, axis=None, keepdims=False):
    """quantile ignoring NaNs (NumPy's nanquantile; no gradient)."""
    _t("nanquantile", input)
    if input.dtype not in U._FLOATS:
        raise TypeError("For 'nanquantile', the dtype of 'input' must be float32 or float64, but got %s." % input.dtype)
    qs = _quantile_q("nanquantile", q)
    out = np.asarray(np.nanquantile(U.shape_deciding_values("nanquantile", input), qs, axis=axis, keepdims=keepdims))
    t = U.const(out, input.dtype)
    return ops.reshape(t, ()) if out.ndim == 0 else t


# ---------------------------------------------------------------- scatter reductions
def _occurrence_rounds(flat):
    """Splits update rows into rounds in which no position repeats (the k-th write of a position
    goes to round k), so each round is a plain gather-combine-update."""
    seen = {}
    rounds = []
    for j, f in enumerate(flat.tolist()):
        k = seen.get(f, 0)
        seen[f] = k + 1
        if k == len(rounds):
            rounds.append([])
        rounds[k].append(j)
    return rounds


def _combine(how, old, new):
    if how == "mul":
        return old * new
    if how == "div":
        if old.dtype in U._INTS:
            return ops.floor_div(old, new)
        return old / new
    if how == "max":
        return ops.maximum(old, new)
    if how == "min":
        return ops.minimum(old, new)
    if how == "add":
        return old + new
    if how == "sub":
        return old - new
    return new


# kernels that log the bad index as an error and raise a RuntimeError pointing at the log
_LOGGING_KERNELS = ("ScatterNdUpdate",)


def _scatter_reduce(op, input_x, indices, updates, how):
    _t(op, input_x, "input_x")
    _t(op, updates, "updates")
    idx = U.shape_deciding_values(op, indices).astype(np.int64)
    k = idx.shape[-1]
    if k > input_x.ndim:
        raise ValueError("For '%s', the last dimension of 'indices' must be at most the rank of 'input_x' (%d), "
                         "but got %d." % (op, input_x.ndim, k))
    lead = tuple(input_x.shape[:k])
    rest = tuple(input_x.shape[k:])
    batch = idx.shape[:-1]
    if tuple(updates.shape) != batch + rest:
        raise ValueError("For '%s', the shape of 'updates' must be %s, but got %s."
                         % (op, batch + rest, tuple(updates.shape)))
    rows_idx = idx.reshape(-1, k)
    for d in range(k):
        # a value check of the kernel, not of the shapes: MindSpore raises it as a RuntimeError
        if np.any(rows_idx[:, d] < 0) or np.any(rows_idx[:, d] >= lead[d]):
            detail = ("For '%s', the indices must be in [0, %d) along dimension %d, but got %s."
                      % (op, lead[d], d, rows_idx[:, d].tolist()))
            if op in _LOGGING_KERNELS:
                from mindspore import log
                log.error(detail)
                raise RuntimeError("Some errors occurred! The error message is as above")
            raise RuntimeError(detail)
    flat = np.ravel_multi_index(rows_idx.T, lead) if k else np.zeros(len(rows_idx), np.int64)
    n = int(np.prod(lead, dtype=np.int64))
    table = ops.reshape(input_x, (n,) + rest)
    upd = ops.reshape(updates.astype(input_x.dtype), (len(flat),) + rest)
    for members in _occurrence_rounds(flat):
        pos = flat[members]
        old = ops.gather(table, _idx(pos), 0)
        new = _combine(how, old, ops.gather(upd, _idx(members), 0))
        table = ops.tensor_scatter_update(table, U.const(pos.reshape(-1, 1), mstype.int64), new)
    return ops.reshape(table, tuple(input_x.shape))


def _write_back(op, target, value):
    from mindspore.ops._functional_array import _write_back as write_back
    return write_back(target, value, op)


def _axis0(indices):
    return np.expand_dims(U.shape_deciding_values("axis0", indices).astype(np.int64), -1)


def _def_scatter(name, op, how):
    def fn(input_x, indices, updates):
        return _write_back(op, input_x, _scatter_reduce(op, input_x, _axis0(indices), updates, how))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "input_x[indices] %s= updates along axis 0 (a Parameter is written in place)." % how
    export(_F)(fn)


def _def_scatter_nd(name, op, how):
    def fn(input_x, indices, updates, use_locking=False):
        return _write_back(op, input_x, _scatter_reduce(op, input_x, indices, updates, how))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "input_x at the N-D indices combined with updates by %s (a Parameter is written in place)." % how
    export(_F)(fn)


def _def_tensor_scatter(name, op, how):
    def fn(input_x, indices, updates):
        return _scatter_reduce(op, input_x, indices, updates, how)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "A copy of input_x whose N-D indices are combined with updates by %s." % how
    export(_F)(fn)


for _how in ("div", "max", "min", "mul"):
    _def_scatter("scatter_" + _how, "Scatter" + _how.capitalize(), _how)
    _def_tensor_scatter("tensor_scatter_" + _how, "TensorScatter" + _how.capitalize(), _how)
for _how in ("add", "sub", "mul", "div", "max", "min", "update"):
    _def_scatter_nd("scatter_nd_" + _how, "ScatterNd" + _how.capitalize(), _how)


@export(_F)
def unsorted_segment_max(x, segment_ids, num_segments):
    return _prim("UnsortedSegmentMax")(x, segment_ids, num_segments)


@export(_F)
def unsorted_segment_min(x, segment_ids, num_segments):
    return _prim("UnsortedSegmentMin")(x, segment_ids, num_segments)


@export(_F)
def unsorted_segment_prod(x, segment_ids, num_segments):
    return _prim("UnsortedSegmentProd")(x, segment_ids, num_segments)


# ---------------------------------------------------------------- space/batch, padding, top_k
def _block_list(op, name, value, m):
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] * m
    vals = [int(v) for v in value]
    if len(vals) != m:
        raise ValueError("For '%s', the '%s' must have %d elements, but got %d." % (op, name, m, len(vals)))
    return vals


@export(_F)
def space_to_batch_nd(input_x, block_size, paddings):
    """Zero-pads the last M (spatial) dims, cuts them into blocks and moves the blocks to the
    batch (batch index = block offset * N + n, as MindSpore/TensorFlow)."""
    _t("SpaceToBatchND", input_x, "input_x")
    pads = np.asarray(U.shape_deciding_values("space_to_batch_nd", paddings), np.int64).reshape(-1, 2)
    m = pads.shape[0]
    blocks = _block_list("SpaceToBatchND", "block_size", block_size, m)
    s0 = input_x.ndim - m
    if s0 < 1:
        raise ValueError("For 'SpaceToBatchND', the rank of 'input_x' (%d) must exceed the number of spatial "
                         "dimensions in 'paddings' (%d)." % (input_x.ndim, m))
    flat = []
    for i in range(m - 1, -1, -1):
        flat += [int(pads[i][0]), int(pads[i][1])]
    x = ops.pad(input_x, tuple(flat)) if np.any(pads) else input_x
    shape = tuple(x.shape)
    spatial = shape[s0:]
    for i in range(m):
        if spatial[i] % blocks[i]:
            raise ValueError("For 'SpaceToBatchND', the padded spatial dimension %d (%d) must be divisible by "
                             "the block size %d." % (s0 + i, spatial[i], blocks[i]))
    split = list(shape[:s0])
    for i in range(m):
        split += [spatial[i] // blocks[i], blocks[i]]
    x = ops.reshape(x, tuple(split))
    perm = [s0 + 2 * i + 1 for i in range(m)] + list(range(s0)) + [s0 + 2 * i for i in range(m)]
    x = ops.transpose(x, tuple(perm))
    return ops.reshape(x, (shape[0] * int(np.prod(blocks)),) + tuple(shape[1:s0])
                       + tuple(spatial[i] // blocks[i] for i in range(m)))


@export(_F)
def batch_to_space_nd(input_x, block_shape, crops):
    """The inverse of space_to_batch_nd: blocks from the batch back into the last M dims, then crops."""
    _t("BatchToSpaceND", input_x, "input_x")
    crop = np.asarray(U.shape_deciding_values("batch_to_space_nd", crops), np.int64).reshape(-1, 2)
    m = crop.shape[0]
    blocks = _block_list("BatchToSpaceND", "block_shape", block_shape, m)
    shape = tuple(input_x.shape)
    s0 = input_x.ndim - m
    prod = int(np.prod(blocks))
    if s0 < 1 or shape[0] % prod:
        raise ValueError("For 'BatchToSpaceND', the batch (%d) must be divisible by the product of 'block_shape' "
                         "(%d) and the rank must exceed %d." % (shape[0], prod, m))
    b = shape[0] // prod
    mid = shape[1:s0]
    spatial = shape[s0:]
    x = ops.reshape(input_x, tuple(blocks) + (b,) + mid + spatial)
    lead = m + 1 + len(mid)
    perm = list(range(m, lead))
    for i in range(m):
        perm += [lead + i, i]
    x = ops.transpose(x, tuple(perm))
    x = ops.reshape(x, (b,) + mid + tuple(spatial[i] * blocks[i] for i in range(m)))
    for i in range(m):
        lo, hi = int(crop[i][0]), int(crop[i][1])
        if lo or hi:
            x = ops.narrow(x, s0 + i, lo, x.shape[s0 + i] - lo - hi)
    return x


@export(_F)
def mirror_pad(input_x, paddings, mode="REFLECT"):
    return _prim("MirrorPad", mode)(input_x, paddings)


@export(_F)
def padding(x, pad_dim_size=8):
    """x (last dimension 1) widened to pad_dim_size along the last axis with zeros."""
    _t("Padding", x, "x")
    pad_dim_size = U.check_int("Padding", "pad_dim_size", pad_dim_size, 1)
    if x.ndim < 1 or x.shape[-1] != 1:
        raise ValueError("For 'Padding', the last dimension of 'x' must be 1, but got shape %s." % (tuple(x.shape),))
    return ops.pad(x, (0, pad_dim_size - 1))


@export(_F)
def top_k(input_x, k, sorted=True):
    return _prim("TopK", sorted)(input_x, k)


# ---------------------------------------------------------------- unfold (im2col) / fold (col2im)
def _pair_arg(op, name, value):
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    vals = tuple(int(v) for v in value)
    if len(vals) != 2:
        raise ValueError("For '%s', the '%s' must be an int or a pair of ints, but got %s." % (op, name, value))
    return vals


def _patch_index(op, hp, wp, kernel, dilation, stride):
    """Flat (hp*wp) positions of every patch element: (kh*kw, L), and the output grid (oh, ow)."""
    kh, kw = kernel
    dh, dw = dilation
    sh, sw = stride
    oh = (hp - dh * (kh - 1) - 1) // sh + 1
    ow = (wp - dw * (kw - 1) - 1) // sw + 1
    if oh <= 0 or ow <= 0:
        raise ValueError("For '%s', the kernel (with dilation) does not fit the padded input of size %s."
                         % (op, (hp, wp)))
    ki, kj = np.meshgrid(np.arange(kh) * dh, np.arange(kw) * dw, indexing="ij")
    oi, oj = np.meshgrid(np.arange(oh) * sh, np.arange(ow) * sw, indexing="ij")
    rows = ki.reshape(-1, 1) + oi.reshape(1, -1)
    cols = kj.reshape(-1, 1) + oj.reshape(1, -1)
    return rows * wp + cols, oh, ow


@export(_F)
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding kh x kw patches of (N, C, H, W) as columns: (N, C*kh*kw, L)."""
    _t("Im2Col", input)
    if input.ndim != 4:
        raise ValueError("For 'Im2Col', the dimension of 'input' must be 4, but got %d." % input.ndim)
    kernel = _pair_arg("Im2Col", "kernel_size", kernel_size)
    dil = _pair_arg("Im2Col", "dilation", dilation)
    pad = _pair_arg("Im2Col", "padding", padding)
    std = _pair_arg("Im2Col", "stride", stride)
    x = ops.pad(input, (pad[1], pad[1], pad[0], pad[0])) if any(pad) else input
    n, c, hp, wp = x.shape
    pos, _, _ = _patch_index("Im2Col", hp, wp, kernel, dil, std)
    cols = ops.gather(ops.reshape(x, (n, c, hp * wp)), _idx(pos), 2)
    return ops.reshape(cols, (n, c * pos.shape[0], pos.shape[1]))


@export(_F)
def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The adjoint of unfold: columns (N, C*kh*kw, L) summed back into (N, C, H, W)."""
    _t("Col2Im", input)
    if input.ndim != 3:
        raise ValueError("For 'Col2Im', the dimension of 'input' must be 3, but got %d." % input.ndim)
    size = _pair_arg("Col2Im", "output_size", U.shape_tuple("Col2Im", output_size, "output_size")
                     if isinstance(output_size, Tensor) else output_size)
    kernel = _pair_arg("Col2Im", "kernel_size", kernel_size)
    dil = _pair_arg("Col2Im", "dilation", dilation)
    pad = _pair_arg("Col2Im", "padding", padding)
    std = _pair_arg("Col2Im", "stride", stride)
    hp, wp = size[0] + 2 * pad[0], size[1] + 2 * pad[1]
    pos, _, _ = _patch_index("Col2Im", hp, wp, kernel, dil, std)
    k, l = pos.shape
    n, ck, length = input.shape
    if ck % k or length != l:
        raise ValueError("For 'Col2Im', the 'input' must have shape (N, C*%d, %d), but got %s."
                         % (k, l, tuple(input.shape)))
    c = ck // k
    rows = ops.transpose(ops.reshape(input, (n * c, k * l)), (1, 0))
    summed = ops.unsorted_segment_sum(rows, _idx(pos), hp * wp)
    out = ops.reshape(ops.transpose(summed, (1, 0)), (n, c, hp, wp))
    if any(pad):
        out = ops.narrow(ops.narrow(out, 2, pad[0], size[0]), 3, pad[1], size[1])
    return out


# ---------------------------------------------------------------- windows
def _window(op, window_length, periodic, dtype, fn):
    window_length = U.check_int(op, "window_length", window_length, 0)
    U.check_bool(op, "periodic", periodic)
    dtype = mstype.float32 if dtype is None else dtype
    if dtype not in U._ALL_FLOATS:
        raise TypeError("For '%s', the 'dtype' must be a float type, but got %s." % (op, dtype))
    if window_length == 0:
        return ops.zeros((0,), dtype)
    if window_length == 1:
        return ops.ones((1,), dtype)
    n = window_length + 1 if periodic else window_length
    w = fn(np.arange(n, dtype=np.float64), n)[:window_length]
    return U.const(w, dtype)


@export(_F)
def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    return _window("HammingWindow", window_length, periodic, dtype,
                   lambda i, n: alpha - beta * np.cos(2 * _math.pi * i / (n - 1)))


@export(_F)
def blackman_window(window_length, periodic=True, *, dtype=None):
    return _window("BlackmanWindow", window_length, periodic, dtype,
                   lambda i, n: 0.42 - 0.5 * np.cos(2 * _math.pi * i / (n - 1)) + 0.08 * np.cos(4 * _math.pi * i / (n - 1)))


@export(_F)
def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    return _window("KaiserWindow", window_length, periodic, dtype,
                   lambda i, n: np.i0(beta * np.sqrt(np.clip(1 - (2 * i / (n - 1) - 1) ** 2, 0, None))) / np.i0(beta))


@export(_F)
def hann_window(window_length, periodic=True, *, dtype=None):
    """0.5 - 0.5 cos(2 pi n / (M - 1)); without dtype MindSpore builds it in NumPy's float64 and
    returns Float64, and so does this."""
    return _window("hann_window", window_length, periodic, mstype.float64 if dtype is None else dtype,
                   lambda i, n: 0.5 - 0.5 * np.cos(2 * _math.pi * i / (n - 1)))


@export(_F)
def view_as_real(input):
    """A complex (..., ) Tensor as a real (..., 2) one: the last axis holds (real, imag)."""
    U.check_tensor("view_as_real", "input", input)
    if input.dtype not in (mstype.complex64, mstype.complex128):
        raise TypeError("For view_as_real, the dtype of input Tensor must be complex.")
    return ops.stack((ops.real(input), ops.imag(input)), -1)


@export(_F)
def dyn_shape(input_x):
    """The shape of input_x as a 1-D int32 Tensor (ops.shape gives the tuple)."""
    _t("TensorShape", input_x, "input_x")
    return U.const(np.asarray(input_x.shape, np.int32).reshape(-1), mstype.int32)


@export(_F)
def channel_shuffle(x, groups):
    """(*, C, H, W) with its C channels split into `groups` groups and interleaved: (g, C/g) -> (C/g, g)."""
    _t("ChannelShuffle", x, "x")
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
        raise ValueError("For 'ChannelShuffle', 'group' must be a positive int, but got %s." % (groups,))
    if x.ndim < 3:
        raise TypeError("For 'ChannelShuffle', the dimension of 'x' must be at least 3, but got %d." % x.ndim)
    c = x.shape[-3]
    if c % groups:
        raise ValueError("For 'ChannelShuffle', the number of channels (%d) must be divisible by 'group' (%d)."
                         % (c, groups))
    lead = tuple(x.shape[:-3])
    h, w = x.shape[-2], x.shape[-1]
    y = ops.reshape(x, lead + (groups, c // groups, h, w))
    n = len(lead)
    y = ops.transpose(y, tuple(range(n)) + (n + 1, n) + (n + 2, n + 3))
    return ops.reshape(y, lead + (c, h, w))

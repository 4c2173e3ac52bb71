"""Shape, indexing and sorting functions of mindspore.ops composed from gradstep's C++ ops.

Values flow through differentiable ops (gather, concat, select, matmul); only index bookkeeping
(positions from shapes, the order a sort finds) is computed with NumPy."""
import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _t(op, x, name="input"):
    return U.check_tensor(op, name, x)


def _index_tensor(op, index, name="index"):
    if not isinstance(index, Tensor):
        index = Tensor(np.asarray(index, dtype=np.int64))
    if index.dtype not in U._INTS:
        raise TypeError("For '%s', the dtype of '%s' must be int32 or int64, but got %s."
                        % (op, name, index.dtype))
    return index


# ---------------------------------------------------------------- shapes
@export(_F)
def chunk(input, chunks, axis=0):
    _t("chunk", input)
    U.check_int("chunk", "chunks", chunks, 1)
    ax = U.norm_axis("chunk", axis, input.ndim)
    n = input.shape[ax]
    size = -(-n // chunks) if n else 0
    if size == 0:
        return (input,)
    sections = [size] * (n // size) + ([n % size] if n % size else [])
    return tuple(ops.split(input, sections, ax))


@export(_F)
def tensor_split(input, indices_or_sections, axis=0):
    ax = U.norm_axis("tensor_split", axis, input.ndim)
    n = input.shape[ax]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        base, extra = divmod(n, k)
        sizes = [base + 1] * extra + [base] * (k - extra)
    else:
        bounds = [0] + [min(max(int(i), 0), n) for i in indices_or_sections] + [n]
        sizes = [max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])]
    return _split_sizes(input, sizes, ax)


def _split_sizes(x, sizes, ax):
    out = []
    start = 0
    for s in sizes:
        idx = U.const(np.arange(start, start + s), mstype.int64)
        out.append(ops.gather(x, idx, ax))
        start += s
    return tuple(out)


@export(_F)
def unbind(input, dim=0):
    ax = U.norm_axis("Unstack", dim, input.ndim)
    return tuple(ops.squeeze(p, ax) for p in ops.split(input, 1, ax))


@export(_F)
def unstack(input_x, axis=0):
    return unbind(input_x, axis)


@export(_F)
def hsplit(input, indices_or_sections):
    return tensor_split(input, indices_or_sections, 1 if input.ndim > 1 else 0)


@export(_F)
def vsplit(input, indices_or_sections):
    return tensor_split(input, indices_or_sections, 0)


@export(_F)
def swapaxes(input, axis0, axis1):
    _t("swapaxes", input)
    a = U.norm_axis("swapaxes", axis0, input.ndim, "axis0")
    b = U.norm_axis("swapaxes", axis1, input.ndim, "axis1")
    perm = list(range(input.ndim))
    perm[a], perm[b] = perm[b], perm[a]
    return ops.transpose(input, tuple(perm)) if a != b else input


@export(_F)
def swapdims(input, dim0, dim1):
    return swapaxes(input, dim0, dim1)


@export(_F)
def moveaxis(x, source, destination):
    src = source if isinstance(source, (tuple, list)) else (source,)
    dst = destination if isinstance(destination, (tuple, list)) else (destination,)
    src = [U.norm_axis("moveaxis", s, x.ndim, "source") for s in src]
    dst = [U.norm_axis("moveaxis", d, x.ndim, "destination") for d in dst]
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return ops.transpose(x, tuple(order))


@export(_F)
def movedim(x, source, destination):
    return moveaxis(x, source, destination)


@export(_F)
def t(input):
    if input.ndim < 2:
        return input
    return ops.transpose(input, (1, 0))


@export(_F)
def ravel(input):
    return ops.reshape(input, (-1,))


@export(_F)
def flip(input, dims):
    _t("flip", input)
    axes = U.norm_axes("flip", dims if isinstance(dims, (tuple, list)) else (dims,), input.ndim, "dims")
    x = input
    for a in axes:
        x = ops.gather(x, U.const(np.arange(x.shape[a] - 1, -1, -1), mstype.int64), a)
    return x


@export(_F)
def fliplr(input):
    return flip(input, (1,))


@export(_F)
def flipud(input):
    return flip(input, (0,))


@export(_F)
def roll(input, shifts, dims=None):
    _t("Roll", input)
    if dims is None:
        flat = ops.reshape(input, (-1,))
        s = shifts[0] if isinstance(shifts, (tuple, list)) else shifts
        return ops.reshape(roll(flat, s, 0), input.shape)
    shifts = shifts if isinstance(shifts, (tuple, list)) else (shifts,)
    dims = dims if isinstance(dims, (tuple, list)) else (dims,)
    if len(shifts) != len(dims):
        raise ValueError("For 'Roll', the shape of 'shifts' and the shape of 'dims' must be the same, "
                         "but got %d and %d." % (len(shifts), len(dims)))
    x = input
    for s, d in zip(shifts, dims):
        a = U.norm_axis("Roll", d, x.ndim, "dims")
        n = x.shape[a]
        x = ops.gather(x, U.const((np.arange(n) - int(s)) % max(n, 1), mstype.int64), a)
    return x


def _tri_mask(shape, diagonal, lower):
    rows, cols = shape[-2], shape[-1]
    m = np.tri(rows, cols, diagonal, dtype=bool) if lower else ~np.tri(rows, cols, diagonal - 1, dtype=bool)
    return m


@export(_F)
def tril(input, diagonal=0):
    _t("Tril", input)
    if input.ndim < 2:
        raise ValueError("For 'Tril', the rank of 'input' must be at least 2, but got %d." % input.ndim)
    U.check_int("Tril", "diagonal", diagonal)
    mask = U.const(_tri_mask(input.shape, diagonal, True), mstype.bool_)
    return ops.select(ops.broadcast_to(mask, input.shape), input, ops.zeros_like(input))


@export(_F)
def triu(input, diagonal=0):
    _t("Triu", input)
    if input.ndim < 2:
        raise ValueError("For 'Triu', the rank of 'input' must be at least 2, but got %d." % input.ndim)
    U.check_int("Triu", "diagonal", diagonal)
    mask = U.const(_tri_mask(input.shape, diagonal, False), mstype.bool_)
    return ops.select(ops.broadcast_to(mask, input.shape), input, ops.zeros_like(input))


@export(_F)
def eye(n, m=None, dtype=None):
    U.check_int("Eye", "n", n, 0)
    if m is None:
        m = n
    U.check_int("Eye", "m", m, 0)
    return U.const(np.eye(n, m), dtype or mstype.float32)


@export(_F)
def identity(n, dtype=mstype.float32):
    return eye(n, n, dtype)


@export(_F)
def linspace(start, end, steps):
    s = float(start.asnumpy()) if isinstance(start, Tensor) else start
    e = float(end.asnumpy()) if isinstance(end, Tensor) else end
    n = int(steps.asnumpy()) if isinstance(steps, Tensor) else steps
    U.check_int("LinSpace", "steps", n, 1)
    dt = start.dtype if isinstance(start, Tensor) and start.dtype in U._FLOATS else mstype.float32
    return U.const(np.linspace(s, e, n), dt)


@export(_F)
def logspace(start, end, steps, base=10, *, dtype=mstype.float32):
    return U.const(np.logspace(start, end, steps, base=base), dtype)


@export(_F)
def full_like(input, fill_value, *, dtype=None):
    _t("full_like", input)
    return ops.full(input.shape, fill_value, dtype=dtype or input.dtype)


@export(_F)
def fills(x, value):
    return ops.full(x.shape, value, dtype=x.dtype)


@export(_F)
def empty(*size, dtype=None):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return ops.zeros(size, dtype or mstype.float32)


@export(_F)
def empty_like(input, *, dtype=None):
    return ops.zeros_like(input, dtype=dtype)


@export(_F)
def narrow(input, axis, start, length):
    _t("narrow", input)
    ax = U.norm_axis("narrow", axis, input.ndim)
    U.check_int("narrow", "start", start)
    U.check_int("narrow", "length", length, 0)
    n = input.shape[ax]
    if start < -n or start >= n:
        raise ValueError("For 'narrow', the 'start' must be in [%d, %d), but got %d." % (-n, n, start))
    start %= n
    if start + length > n:
        raise ValueError("For 'narrow', 'start' + 'length' must not exceed the size of the axis, "
                         "but got start=%d, length=%d, size=%d." % (start, length, n))
    return ops.gather(input, U.const(np.arange(start, start + length), mstype.int64), ax)


@export(_F)
def repeat_interleave(input, repeats, axis=None):
    _t("repeat_interleave", input)
    x = input
    if axis is None:
        x = ops.reshape(x, (-1,))
        axis = 0
    ax = U.norm_axis("repeat_interleave", axis, x.ndim)
    reps = U.numpy_of(repeats).astype(np.int64).reshape(-1)
    n = x.shape[ax]
    if reps.size == 1:
        reps = np.full(n, int(reps[0]))
    if reps.size != n:
        raise ValueError("For 'repeat_interleave', 'repeats' must have %d elements, but got %d." % (n, reps.size))
    return ops.gather(x, U.const(np.repeat(np.arange(n), reps), mstype.int64), ax)


@export(_F)
def repeat_elements(x, rep, axis=0):
    return repeat_interleave(x, rep, axis)


@export(_F)
def hstack(tensors):
    ts = [atleast_1d(x) for x in tensors]
    return ops.concat(tuple(ts), 0 if ts[0].ndim == 1 else 1)


@export(_F)
def vstack(inputs):
    return ops.concat(tuple(atleast_2d(x) for x in inputs), 0)


U.export_as("row_stack", vstack, _F)


@export(_F)
def column_stack(tensors):
    ts = [ops.reshape(x, (-1, 1)) if x.ndim < 2 else x for x in tensors]
    return ops.concat(tuple(ts), 1)


@export(_F)
def dstack(inputs):
    return ops.concat(tuple(atleast_3d(x) for x in inputs), 2)


@export(_F)
def atleast_1d(inputs):
    if isinstance(inputs, (tuple, list)):
        return tuple(atleast_1d(x) for x in inputs)
    return ops.reshape(inputs, (1,)) if inputs.ndim == 0 else inputs


@export(_F)
def atleast_2d(inputs):
    if isinstance(inputs, (tuple, list)):
        return tuple(atleast_2d(x) for x in inputs)
    if inputs.ndim >= 2:
        return inputs
    return ops.reshape(inputs, (1, -1) if inputs.ndim == 1 else (1, 1))


@export(_F)
def atleast_3d(inputs):
    if isinstance(inputs, (tuple, list)):
        return tuple(atleast_3d(x) for x in inputs)
    if inputs.ndim >= 3:
        return inputs
    if inputs.ndim == 2:
        return ops.expand_dims(inputs, 2)
    if inputs.ndim == 1:
        return ops.reshape(inputs, (1, -1, 1))
    return ops.reshape(inputs, (1, 1, 1))


@export(_F)
def meshgrid(*inputs, indexing="xy"):
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    U.check_str("Meshgrid", "indexing", indexing, ("xy", "ij"))
    shape = [x.shape[0] for x in inputs]
    if indexing == "xy" and len(inputs) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(inputs):
        pos = i
        if indexing == "xy" and len(inputs) >= 2 and i < 2:
            pos = 1 - i
        view = [1] * len(inputs)
        view[pos] = -1
        out.append(ops.broadcast_to(ops.reshape(x, tuple(view)), tuple(shape)))
    return tuple(out)


@export(_F)
def diag(input):
    if input.ndim == 1:
        n = input.shape[0]
        return ops.reshape(input, (n, 1)) * U.const(np.eye(n), input.dtype) if input.dtype != mstype.bool_ \
            else ops.select(U.const(np.eye(n, dtype=bool), mstype.bool_), ops.broadcast_to(ops.reshape(input, (n, 1)), (n, n)),
                            ops.zeros((n, n), mstype.bool_))
    return diagonal(input)


@export(_F)
def diagonal(input, offset=0, dim1=0, dim2=1):
    a = U.norm_axis("diagonal", dim1, input.ndim, "dim1")
    b = U.norm_axis("diagonal", dim2, input.ndim, "dim2")
    x = moveaxis(input, (a, b), (input.ndim - 2, input.ndim - 1))
    r, c = x.shape[-2], x.shape[-1]
    rows = np.arange(max(0, -offset), min(r, c - offset)) if c - offset > 0 else np.arange(0)
    flat = rows * c + rows + offset
    lead = tuple(x.shape[:-2])
    y = ops.reshape(x, lead + (r * c,))
    return ops.gather(y, U.const(flat, mstype.int64), len(lead))


@export(_F)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose (dim1, dim2) diagonals at `offset` hold input's last axis."""
    k = input.shape[-1]
    n = k + abs(offset)
    rows = np.arange(k) + max(-offset, 0)
    cols = np.arange(k) + max(offset, 0)
    place = np.zeros((k, n * n))
    place[np.arange(k), rows * n + cols] = 1.0
    work = input if input.dtype in U._FLOATS else input.astype(mstype.float64)
    out = ops.matmul(work, U.const(place, work.dtype))
    out = ops.reshape(out, tuple(input.shape[:-1]) + (n, n))
    if work is not input:
        out = ops.round(out).astype(input.dtype)
    nd = out.ndim
    a, b = dim1 % nd, dim2 % nd
    if (a, b) != (nd - 2, nd - 1):
        out = moveaxis(out, (nd - 2, nd - 1), (a, b))
    return out


@export(_F)
def matrix_band_part(x, lower, upper):
    r, c = x.shape[-2], x.shape[-1]
    i, j = np.meshgrid(np.arange(r), np.arange(c), indexing="ij")
    keep = np.ones((r, c), bool)
    if lower >= 0:
        keep &= (i - j) <= lower
    if upper >= 0:
        keep &= (j - i) <= upper
    return ops.select(ops.broadcast_to(U.const(keep, mstype.bool_), x.shape), x, ops.zeros_like(x))


def _range(start, end, step):
    s = U.numpy_of(start).item()
    e = U.numpy_of(end).item()
    st = U.numpy_of(step).item()
    dt = start.dtype if isinstance(start, Tensor) else U.dtype_of_numpy(np.asarray(s))
    return U.const(np.arange(s, e, st), dt)


_range.__name__ = "range"
U.export_as("range", _range, _F)


# ---------------------------------------------------------------- pad
@export(_F)
def pad(input_x, padding, mode="constant", value=None):
    _t("pad", input_x, "input_x")
    if isinstance(padding, Tensor):
        padding = tuple(int(v) for v in padding.asnumpy().reshape(-1))
    if not isinstance(padding, (tuple, list)):
        raise TypeError("For 'pad', the type of 'padding' must be a tuple, list or Tensor, but got %s."
                        % type(padding).__name__)
    if len(padding) % 2 or len(padding) // 2 > input_x.ndim:
        raise ValueError("For 'pad', the length of 'padding' must be even and at most twice the rank of "
                         "'input_x' (%d), but got %d." % (input_x.ndim, len(padding)))
    U.check_str("pad", "mode", mode, ("constant", "reflect", "replicate", "circular"))
    x = input_x
    for k in _brange(len(padding) // 2):
        before, after = int(padding[2 * k]), int(padding[2 * k + 1])
        ax = x.ndim - 1 - k
        x = _pad_axis(x, ax, before, after, mode, value)
    return x


def _brange(*args):
    import builtins
    return builtins.range(*args)


def _pad_axis(x, ax, before, after, mode, value):
    n = x.shape[ax]
    if before < 0 or after < 0:  # negative padding crops
        start = -before if before < 0 else 0
        stop = n + after if after < 0 else n
        x = ops.gather(x, U.const(np.arange(start, stop), mstype.int64), ax)
        before, after = max(before, 0), max(after, 0)
        n = x.shape[ax]
    if before == 0 and after == 0:
        return x
    if mode == "constant":
        fill = 0 if value is None else value
        parts = []
        if before:
            shape = list(x.shape)
            shape[ax] = before
            parts.append(ops.full(tuple(shape), fill, dtype=x.dtype))
        parts.append(x)
        if after:
            shape = list(x.shape)
            shape[ax] = after
            parts.append(ops.full(tuple(shape), fill, dtype=x.dtype))
        return ops.concat(tuple(parts), ax)
    positions = np.arange(-before, n + after)
    if mode == "reflect":
        if before >= n or after >= n:
            raise ValueError("For 'pad', in 'reflect' mode the padding must be less than the size of the "
                             "dimension (%d), but got (%d, %d)." % (n, before, after))
        period = 2 * (n - 1) if n > 1 else 1
        p = np.abs(positions) % period
        idx = np.where(p >= n, period - p, p)
    elif mode == "replicate":
        idx = np.clip(positions, 0, n - 1)
    else:  # circular
        idx = positions % n
    return ops.gather(x, U.const(idx, mstype.int64), ax)


# ---------------------------------------------------------------- indexing
def _flat_offsets(shape, skip):
    """Offsets of every position of `shape` in a row-major array of that shape, without axis skip."""
    strides = np.cumprod((list(shape[1:]) + [1])[::-1])[::-1]
    grids = np.meshgrid(*[np.arange(d) for d in shape], indexing="ij")
    off = np.zeros(shape, np.int64)
    for a, g in enumerate(grids):
        if a != skip:
            off += g * int(strides[a])
    return off, int(strides[skip])


@export(_F)
def gather_elements(input, dim, index):
    _t("GatherD", input, "x")
    index = _index_tensor("GatherD", index)
    ax = U.norm_axis("GatherD", dim, input.ndim, "dim")
    if index.ndim != input.ndim:
        raise ValueError("For 'GatherD', the rank of 'index' must be equal to the rank of 'x', "
                         "but got %d and %d." % (index.ndim, input.ndim))
    for a in _brange(input.ndim):
        if a != ax and index.shape[a] > input.shape[a]:
            raise ValueError("For 'GatherD', the size of 'index' must not exceed the size of 'x' in "
                             "dimension %d, but got %d and %d." % (a, index.shape[a], input.shape[a]))
    in_strides = np.cumprod((list(input.shape[1:]) + [1])[::-1])[::-1]
    # the offsets of the other axes, built by broadcasting (no index-sized grid per axis)
    base = np.zeros(index.shape, np.int64)
    for a in _brange(index.ndim):
        if a != ax:
            view = [1] * index.ndim
            view[a] = -1
            base += (np.arange(index.shape[a], dtype=np.int64) * int(in_strides[a])).reshape(view)
    n = input.shape[ax]
    if not _symbolic(index):
        # a known index: the flat positions in NumPy, one constant for the gather
        idx = index.asnumpy().astype(np.int64)
        flat = U.const(((idx + (idx < 0) * n) * int(in_strides[ax]) + base).reshape(-1), mstype.int64)
    else:
        idx = index.astype(mstype.int64)
        idx = idx + (idx < 0).astype(mstype.int64) * n
        flat = ops.reshape(idx * int(in_strides[ax]) + U.const(base, mstype.int64), (-1,))
    out = ops.gather(ops.reshape(input, (-1,)), flat, 0)
    return ops.reshape(out, index.shape)


@export(_F)
def gather_d(x, dim, index):
    return gather_elements(x, dim, index)


@export(_F)
def gather_nd(input_x, indices):
    _t("GatherNd", input_x, "input_x")
    indices = _index_tensor("GatherNd", indices, "indices")
    k = indices.shape[-1]
    if k > input_x.ndim:
        raise ValueError("For 'GatherNd', the last dimension of 'indices' must be at most the rank of "
                         "'input_x' (%d), but got %d." % (input_x.ndim, k))
    lead = tuple(input_x.shape[:k])
    rest = tuple(input_x.shape[k:])
    strides = np.cumprod((list(lead[1:]) + [1])[::-1])[::-1] if k else np.zeros(0, np.int64)
    idx = indices.astype(mstype.int64)
    if k:
        flat = ops.sum(idx * U.const(strides, mstype.int64), -1)
    else:
        flat = ops.zeros(tuple(indices.shape[:-1]), mstype.int64)
    table = ops.reshape(input_x, (int(np.prod(lead, dtype=np.int64)),) + rest)
    out = ops.gather(table, ops.reshape(flat, (-1,)), 0)
    return ops.reshape(out, tuple(indices.shape[:-1]) + rest)


@export(_F)
def index_select(input, axis, index):
    _t("index_select", input)
    index = _index_tensor("index_select", index)
    if index.ndim != 1:
        raise ValueError("For 'index_select', the 'index' must be a 1-D tensor, but got rank %d." % index.ndim)
    ax = U.norm_axis("index_select", axis, input.ndim)
    return ops.gather(input, index, ax)


@export(_F)
def take(x, indices, axis=None, mode="clip"):
    if axis is None:
        return ops.gather(ops.reshape(x, (-1,)), indices, 0)
    return ops.gather(x, indices, axis)


@export(_F)
def take_along_dim(input, indices, dim=None):
    if dim is None:
        return ops.gather(ops.reshape(input, (-1,)), ops.reshape(indices, (-1,)), 0)
    shape = list(input.shape)
    shape[dim] = indices.shape[dim]
    return gather_elements(input, dim, ops.broadcast_to(indices, tuple(shape)))


@export(_F)
def masked_fill(input_x, mask, value):
    _t("MaskedFill", input_x, "input_x")
    _t("MaskedFill", mask, "mask")
    if mask.dtype != mstype.bool_:
        raise TypeError("For 'MaskedFill', the dtype of 'mask' must be bool, but got %s." % mask.dtype)
    shape = tuple(np.broadcast_shapes(tuple(input_x.shape), tuple(mask.shape)))
    if isinstance(value, Tensor):
        v = ops.broadcast_to(value.astype(input_x.dtype), shape)
    else:
        v = ops.full(shape, value, dtype=input_x.dtype)
    return ops.select(ops.broadcast_to(mask, shape), v, ops.broadcast_to(input_x, shape))


@export(_F)
def masked_select(input, mask):
    _t("MaskedSelect", input)
    _t("MaskedSelect", mask, "mask")
    shape = tuple(np.broadcast_shapes(tuple(input.shape), tuple(mask.shape)))
    m = np.broadcast_to(U.shape_deciding_values("MaskedSelect", mask).astype(bool), shape)
    x = ops.broadcast_to(input, shape) if tuple(input.shape) != shape else input
    return ops.gather(ops.reshape(x, (-1,)), U.const(np.flatnonzero(m), mstype.int64), 0)


def _scatter_rows(n, flat_idx, updates):
    """Sum of updates' rows into an (n, ...) zero tensor at flat_idx (1-D), as one_hot^T @ rows."""
    k = flat_idx.shape[0]
    rest = tuple(updates.shape[1:])
    rows = ops.reshape(updates, (k, -1)) if rest else ops.reshape(updates, (k, 1))
    # Other dtypes (integers, float16) are summed in float64, which is exact for integers, and
    # cast back: the cast passes the gradient through to the updates as MindSpore's kernels do
    # (a rounding here made it zero).
    widen = updates.dtype not in U._FLOATS
    work = rows.astype(mstype.float64) if widen else rows
    hot = ops.one_hot(flat_idx, n, U.as_tensor(1.0, dtype=work.dtype), U.as_tensor(0.0, dtype=work.dtype))
    out = ops.matmul(ops.transpose(hot, (1, 0)), work)
    if widen:
        out = out.astype(updates.dtype)
    return ops.reshape(out, (n,) + rest)


def _nd_flat(op, shape, indices):
    indices = _index_tensor(op, indices, "indices")
    k = indices.shape[-1]
    if k > len(shape):
        raise ValueError("For '%s', the last dimension of 'indices' must be at most the rank of the "
                         "target (%d), but got %d." % (op, len(shape), k))
    lead = tuple(shape[:k])
    strides = np.cumprod((list(lead[1:]) + [1])[::-1])[::-1]
    idx = indices.astype(mstype.int64)
    flat = ops.reshape(ops.sum(idx * U.const(strides, mstype.int64), -1), (-1,))
    return flat, int(np.prod(lead, dtype=np.int64)), tuple(shape[k:]), tuple(indices.shape[:-1])


def _updates_rows(op, updates, batch, rest):
    expected = batch + rest
    if tuple(updates.shape) != expected:
        raise ValueError("For '%s', the shape of 'updates' must be %s, but got %s."
                         % (op, expected, tuple(updates.shape)))
    return ops.reshape(updates, (int(np.prod(batch, dtype=np.int64)),) + rest)


@export(_F)
def scatter_nd(indices, updates, shape):
    _t("ScatterNd", updates, "updates")
    shape = U.shape_tuple("ScatterNd", shape)
    flat, n, rest, batch = _nd_flat("ScatterNd", shape, indices)
    rows = _updates_rows("ScatterNd", updates, batch, rest)
    return ops.reshape(_scatter_rows(n, flat, rows), shape)


def _tensor_scatter(op, input_x, indices, updates, how):
    _t(op, input_x, "input_x")
    flat, n, rest, batch = _nd_flat(op, tuple(input_x.shape), indices)
    rows = _updates_rows(op, updates.astype(input_x.dtype) if updates.dtype != input_x.dtype else updates,
                         batch, rest)
    table = ops.reshape(input_x, (n,) + rest)
    if how == "add":
        out = table + _scatter_rows(n, flat, rows)
    elif how == "sub":
        out = table - _scatter_rows(n, flat, rows)
    elif how == "update":
        # the last update of a position wins, as on CPU
        fi = U.numpy_of(flat) if not _symbolic(flat) else None
        if fi is not None:
            keep = np.zeros(fi.shape, bool)
            seen = set()
            for j in _brange(len(fi) - 1, -1, -1):
                if fi[j] not in seen:
                    keep[j] = True
                    seen.add(fi[j])
            sel = U.const(np.flatnonzero(keep), mstype.int64)
            flat = ops.gather(flat, sel, 0)
            rows = ops.gather(rows, sel, 0)
        ones = ops.ones((flat.shape[0],) + ((1,) * len(rest)), input_x.dtype if input_x.dtype in U._FLOATS
                        else mstype.float32)
        hit = _scatter_rows(n, flat, ones) > 0
        hit = ops.broadcast_to(hit, (n,) + rest)
        out = ops.select(hit, _scatter_rows(n, flat, rows), table)
    else:
        raise ValueError(how)
    return ops.reshape(out, tuple(input_x.shape))


def _symbolic(x):
    try:
        x.asnumpy()
        return False
    except Exception:  # a graph-mode value has no data yet
        return True


@export(_F)
def tensor_scatter_update(input_x, indices, updates):
    return _tensor_scatter("TensorScatterUpdate", input_x, indices, updates, "update")


@export(_F)
def tensor_scatter_add(input_x, indices, updates):
    return _tensor_scatter("TensorScatterAdd", input_x, indices, updates, "add")


@export(_F)
def tensor_scatter_sub(input_x, indices, updates):
    return _tensor_scatter("TensorScatterSub", input_x, indices, updates, "sub")


def _elements_to_nd(op, input_x, axis, indices):
    ax = U.norm_axis(op, axis, input_x.ndim)
    index = _index_tensor(op, indices, "indices")
    grids = np.meshgrid(*[np.arange(d) for d in index.shape], indexing="ij")
    cols = []
    for a in _brange(input_x.ndim):
        if a == ax:
            i = index.astype(mstype.int64)
            cols.append(i + (i < 0).astype(mstype.int64) * input_x.shape[ax])
        else:
            cols.append(U.const(grids[a], mstype.int64))
    return ops.stack(tuple(cols), -1)


@export(_F)
def scatter(input, axis, index, src):
    _t("scatter", input)
    nd = _elements_to_nd("scatter", input, axis, index)
    if not isinstance(src, Tensor):
        src = ops.full(tuple(index.shape), src, dtype=input.dtype)
    elif tuple(src.shape) != tuple(index.shape):
        src = ops.reshape(ops.gather(ops.reshape(src, (-1,)), U.const(
            np.ravel_multi_index(np.indices(index.shape), src.shape).reshape(-1), mstype.int64), 0), index.shape)
    return tensor_scatter_update(input, nd, src)


@export(_F)
def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    U.check_str("TensorScatterElements", "reduction", reduction, ("none", "add"))
    nd = _elements_to_nd("TensorScatterElements", input_x, axis, indices)
    if reduction == "add":
        return tensor_scatter_add(input_x, nd, updates)
    return tensor_scatter_update(input_x, nd, updates)


@export(_F)
def scatter_add(input_x, indices, updates):
    """input_x[indices] += updates along axis 0 (a new tensor; the Parameter form writes back).
    The updates are added one after another in index order, as MindSpore's kernel does, so float
    sums round as there (summing the updates first and adding once rounds differently)."""
    from mindspore.ops._functional_array_more import _scatter_reduce
    indices = _index_tensor("ScatterAdd", indices, "indices")
    idx = np.expand_dims(U.shape_deciding_values("ScatterAdd", indices).astype(np.int64), -1)
    out = _scatter_reduce("ScatterAdd", input_x, idx, updates, "add")
    return _write_back(input_x, out, "ScatterAdd")


@export(_F)
def scatter_update(input_x, indices, updates):
    idx = ops.expand_dims(_index_tensor("ScatterUpdate", indices, "indices").astype(mstype.int64), -1)
    out = tensor_scatter_update(input_x, idx, updates)
    return _write_back(input_x, out)


def _write_back(target, value, op="ScatterUpdate"):
    """A Parameter target takes the new value; the op's output is that value as a Tensor, as
    MindSpore's scatter primitives return (print(output) shows the numbers, not the Parameter)."""
    import mindspore
    if isinstance(target, mindspore.Parameter):
        written = U.write_parameter(op, target, value)
        if mindspore._jit_tracing():
            return written
        return value.astype(target.dtype) if value.dtype != target.dtype else value
    return value


@export(_F)
def select_scatter(input, src, axis, index):
    ax = U.norm_axis("select_scatter", axis, input.ndim)
    mask = np.zeros(input.shape[ax], bool)
    mask[index] = True
    view = [1] * input.ndim
    view[ax] = -1
    m = ops.broadcast_to(U.const(mask.reshape(view), mstype.bool_), input.shape)
    return ops.select(m, ops.broadcast_to(ops.expand_dims(src, ax), input.shape), input)


@export(_F)
def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    ax = U.norm_axis("slice_scatter", axis, input.ndim)
    n = input.shape[ax]
    positions = np.arange(n)[slice(start, end, step)]
    src_idx = np.full(n, -1)
    src_idx[positions] = np.arange(len(positions))
    view = [1] * input.ndim
    view[ax] = -1
    mask = ops.broadcast_to(U.const((src_idx >= 0).reshape(view), mstype.bool_), input.shape)
    spread = ops.gather(src, U.const(np.maximum(src_idx, 0), mstype.int64), ax)
    return ops.select(mask, spread, input)


# ---------------------------------------------------------------- sorting and searching
def _sort_by_ranks(x, ax, descending):
    """(values, int32 indices) of a stable sort along ax with tensor ops only (pairwise ranks and
    a one-hot permutation; O(n^2) memory): the path for values known only when a compiled graph
    runs."""
    y, inv = U.move_axis_last(x, ax)
    n = y.shape[-1]
    a = ops.expand_dims(y, -1)  # element i
    b = ops.expand_dims(y, -2)  # element j
    earlier = U.const(np.arange(n)[None, :] < np.arange(n)[:, None], mstype.bool_)  # j < i
    ahead = (b > a) if descending else (b < a)
    before = ops.logical_or(ahead, ops.logical_and(ops.equal(b, a), earlier))
    rank = ops.sum(before.astype(mstype.int32), -1)  # (..., n): where element i goes
    perm = ops.equal(ops.expand_dims(rank, -1), U.const(np.arange(n), mstype.int32))  # (..., i, r)
    work = y if y.dtype in U._FLOATS else y.astype(mstype.float64)
    pf = perm.astype(work.dtype)
    values = ops.squeeze(ops.matmul(ops.expand_dims(work, -2), pf), -2)
    order = ops.squeeze(ops.matmul(U.const(np.arange(n).reshape(1, n), mstype.float64), perm.astype(mstype.float64)), -2)
    if values.dtype != y.dtype:
        values = ops.round(values).astype(y.dtype)
    order = ops.round(order).astype(mstype.int32)
    return U.restore_axis(values, inv), U.restore_axis(order, inv)


@export(_F)
def sort(input_x, axis=-1, descending=False):
    _t("Sort", input_x, "input_x")
    ax = U.norm_axis("Sort", axis, input_x.ndim)
    if input_x.ndim == 0:
        return input_x, U.const(np.zeros(()), mstype.int32)
    if _symbolic(input_x):
        return _sort_by_ranks(input_x, ax, descending)
    a = U.numpy_of(input_x)
    if descending:
        order = np.argsort(-a if a.dtype != np.bool_ else ~a, axis=ax, kind="stable")
    else:
        order = np.argsort(a, axis=ax, kind="stable")
    idx = U.const(order, mstype.int32)
    return gather_elements(input_x, ax, idx), idx


@export(_F)
def argsort(input, axis=-1, descending=False):
    return sort(input, axis, descending)[1]


@export(_F)
def msort(input):
    return sort(input, 0)[0]


@export(_F)
def topk(input, k, dim=None, largest=True, sorted=True):
    _t("TopK", input)
    U.check_int("TopK", "k", k, 0)
    ax = input.ndim - 1 if dim is None else U.norm_axis("TopK", dim, input.ndim, "dim")
    n = input.shape[ax] if input.ndim else 1
    if k > n:
        raise ValueError("For 'TopK', the 'k' must be less than or equal to the size of the dimension "
                         "(%d), but got %d." % (n, k))
    if input.ndim and _symbolic(input):
        values, order = _sort_by_ranks(input, ax, largest)
        keep = U.const(np.arange(k), mstype.int64)
        return ops.gather(values, keep, ax), ops.gather(order, keep, ax)
    a = U.numpy_of(input)
    key = -a if largest else a
    if a.dtype == np.bool_:
        key = ~a if largest else a
    order = np.argsort(key, axis=ax, kind="stable")
    order = np.take(order, np.arange(k), axis=ax)
    if not sorted:
        order = np.sort(order, axis=ax)
    idx = U.const(order, mstype.int32)
    return gather_elements(input, ax, idx), idx


@export(_F)
def kthvalue(input, k, dim=-1, keepdim=False):
    ax = U.norm_axis("kthvalue", dim, input.ndim, "dim")
    order = np.argsort(U.numpy_of(input), axis=ax, kind="stable")
    idx = np.take(order, [k - 1], axis=ax)
    vals = gather_elements(input, ax, U.const(idx, mstype.int64))
    idx_t = U.const(idx, mstype.int64)
    if not keepdim:
        vals, idx_t = ops.squeeze(vals, ax), ops.squeeze(idx_t, ax)
    return vals, idx_t


@export(_F)
def unique(input):
    _t("Unique", input)
    a = U.shape_deciding_values("Unique", input).reshape(-1)
    # in order of first occurrence, as MindSpore's CPU kernel (Unique sets no "sorted" attribute)
    _, first, inverse = np.unique(a, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    first, inverse = first[order].astype(np.int64), rank[inverse.reshape(-1)]
    out = ops.gather(ops.reshape(input, (-1,)), U.const(first, mstype.int64), 0) if len(first) else input
    return out, U.const(inverse.reshape(input.shape), mstype.int32 if input.dtype == mstype.int32 else mstype.int64)


@export(_F)
def unique_with_pad(x, pad_num):
    a = U.numpy_of(x).reshape(-1)
    values, first, inverse = [], [], np.zeros(a.shape, np.int64)
    for i, v in enumerate(a):
        if v not in values:
            values.append(v)
            first.append(i)
        inverse[i] = values.index(v)
    y = np.full(a.shape, pad_num, a.dtype)
    y[: len(values)] = values
    return U.const(y, x.dtype), U.const(inverse, x.dtype)


@export(_F)
def unique_consecutive(input, return_idx=False, return_counts=False, axis=None):
    a = U.shape_deciding_values("UniqueConsecutive", input).reshape(-1)
    if a.size == 0:
        starts = np.zeros(0, np.int64)
    else:
        starts = np.concatenate([[0], np.flatnonzero(a[1:] != a[:-1]) + 1])
    out = ops.gather(ops.reshape(input, (-1,)), U.const(starts, mstype.int64), 0)
    inverse = np.cumsum(np.concatenate([[0], (a[1:] != a[:-1]).astype(np.int64)])) if a.size else starts
    counts = np.diff(np.concatenate([starts, [a.size]]))
    res = (out,)
    if return_idx:
        res += (U.const(inverse, mstype.int64),)
    if return_counts:
        res += (U.const(counts, mstype.int64),)
    return res[0] if len(res) == 1 else res


@export(_F)
def nonzero(input, as_tuple=False):
    _t("NonZero", input)
    nz = np.nonzero(U.shape_deciding_values("NonZero", input))
    if as_tuple:
        return tuple(U.const(i, mstype.int64) for i in nz)
    return U.const(np.stack(nz, -1) if nz else np.zeros((0, 0)), mstype.int64)


@export(_F)
def argwhere(input):
    return nonzero(input)


@export(_F)
def searchsorted(sorted_sequence, values, *, out_int32=False, right=False):
    s = U.numpy_of(sorted_sequence)
    v = U.numpy_of(values)
    side = "right" if right else "left"
    if s.ndim == 1:
        r = np.searchsorted(s, v, side=side)
    else:
        r = np.stack([np.searchsorted(s[i], v[i], side=side) for i in np.ndindex(s.shape[:-1])]).reshape(v.shape)
    return U.const(r, mstype.int32 if out_int32 else mstype.int64)


@export(_F)
def bucketize(input, boundaries, *, right=False):
    r = np.digitize(U.numpy_of(input), np.asarray(boundaries), right=not right)
    return U.const(r, mstype.int32)


@export(_F)
def bincount(input, weights=None, minlength=0):
    w = None if weights is None else U.numpy_of(weights)
    r = np.bincount(U.numpy_of(input).reshape(-1), w, minlength)
    return U.const(r.astype(np.float32), mstype.float32)



@export(_F)
def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """x with y's slices added at `indices` along `axis` (repeated indices accumulate)."""
    _t("IndexAdd", x, "x")
    ax = U.norm_axis("IndexAdd", axis, x.ndim)
    idx = _index_tensor("IndexAdd", indices, "indices").astype(mstype.int64)
    xm = ops.moveaxis(x, ax, 0)
    ym = ops.moveaxis(y, ax, 0)
    added = _scatter_rows(x.shape[ax], ops.reshape(idx, (-1,)), ym.astype(x.dtype))
    return ops.moveaxis(xm + added, 0, ax)


@export(_F)
def sum_to_size(x, *size):
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)
    lead = x.ndim - len(shape)
    out = ops.sum(x, tuple(range(lead))) if lead > 0 else x
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and out.shape[i] != 1)
    return ops.sum(out, axes, True) if axes else out

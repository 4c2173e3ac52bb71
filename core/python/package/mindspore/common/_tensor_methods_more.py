"""More Tensor methods MindSpore documents (its Tensor API page and common/tensor.py examples):
each one calls the mindspore.ops function of the same meaning, so it is recorded and
differentiable like the op. Installed as _tensor_methods installs its own: a method the C++
class already has is never replaced."""
import numpy as np

import mindspore.ops as ops
from mindspore import Tensor, log
from mindspore.common import dtype as mstype
from mindspore.common._tensor_methods import _defines
from mindspore.ops import _functional_util as _U

_methods = {}


def method(fn):
    _methods[fn.__name__] = fn
    return fn


def _int_tensor(values):
    return Tensor(np.asarray(values, np.int64), mstype.int64)


# ---------------------------------------------------------------- element-wise
@method
def bitwise_and(self, x):
    return ops.bitwise_and(self, x)


@method
def bitwise_or(self, x):
    return ops.bitwise_or(self, x)


@method
def bitwise_xor(self, x):
    return ops.bitwise_xor(self, x)


@method
def invert(self):
    return ops.invert(self)


@method
def celu(self, alpha=1.0):
    return ops.celu(self, alpha)


@method
def hardshrink(self, lambd=0.5):
    return ops.hardshrink(self, lambd)


@method
def soft_shrink(self, lambd=0.5):
    return ops.soft_shrink(self, lambd)


@method
def select(self, condition, y):
    """condition ? self : y; an int y needs an int32 tensor, a float y a float32 one."""
    if not isinstance(condition, Tensor):
        raise TypeError("For 'Tensor.select', the argument 'condition' should be Tensor, but got %s."
                        % type(condition))
    if isinstance(y, bool) or not isinstance(y, (Tensor, int, float)):
        raise TypeError("For 'Tensor.select', the argument 'y' should be Tensor, int or float, but got %s." % type(y))
    if isinstance(y, int) and self.dtype != mstype.int32:
        raise TypeError("For 'Tensor.select', if the argument 'y' is int, then the tensor type should be int32 "
                        "but got %s" % self.dtype)
    if isinstance(y, float) and self.dtype != mstype.float32:
        raise TypeError("For 'Tensor.select', if the argument 'y' is float, then the tensor type should be float32 "
                        "but got %s" % self.dtype)
    if not isinstance(y, Tensor):
        y = ops.fill(self.dtype, self.shape, y)
    return ops.select(condition, self, y)


# ---------------------------------------------------------------- linear algebra and norms
@method
def ger(self, x):
    return ops.ger(self, x)


@method
def cdist(self, input_y, p=2.0):
    return ops.cdist(self, input_y, p)


@method
def matrix_determinant(self):
    return ops.det(self)


@method
def log_matrix_determinant(self):
    """(sign, log |det|)."""
    return ops.slogdet(self)


@method
def svd(self, full_matrices=False, compute_uv=True):
    return ops.svd(self, full_matrices, compute_uv)


@method
def renorm(self, p, dim, maxnorm):
    return ops.renorm(self, p, dim, maxnorm)


@method
def lp_norm(self, axis, p=2, keep_dims=False, epsilon=1e-12):
    """(sum |x|^p)^(1/p) over axis, kept at least epsilon (MindSpore's LpNorm floor, which keeps
    a zero norm from dividing by zero in its backward)."""
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError("For 'LpNorm', the type of 'p' must be int, but got %s." % type(p).__name__)
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if p == 0:
        norm = ops.sum(ops.cast(self != 0, self.dtype), axes, keepdim=keep_dims)
    else:
        norm = ops.pow(ops.sum(ops.pow(ops.abs(self), p), axes, keepdim=keep_dims), 1.0 / p)
    return ops.maximum(norm, ops.cast(Tensor(epsilon), norm.dtype))


# ---------------------------------------------------------------- indexing and scatter
@method
def scatter_mul(self, indices, updates):
    return ops.tensor_scatter_mul(self, indices, updates)


@method
def scatter_div(self, indices, updates):
    return ops.tensor_scatter_div(self, indices, updates)


@method
def scatter_sub(self, indices, updates):
    return ops.tensor_scatter_sub(self, indices, updates)


@method
def scatter_min(self, indices, updates):
    return ops.tensor_scatter_min(self, indices, updates)


@method
def scatter_max(self, indices, updates):
    return ops.tensor_scatter_max(self, indices, updates)


def _rows(who, self, v, indices):
    rows = [indices] if isinstance(indices, int) else list(indices)
    if any(isinstance(i, bool) or not isinstance(i, int) for i in rows):
        raise TypeError("For '%s', the 'indices' must be an int or a tuple of ints, but got %s." % (who, indices))
    if tuple(v.shape) != (len(rows),) + tuple(self.shape[1:]):
        raise ValueError("For '%s', the shape of 'v' must be %s, but got %s."
                         % (who, (len(rows),) + tuple(self.shape[1:]), tuple(v.shape)))
    return _int_tensor([[i % self.shape[0]] for i in rows])


@method
def inplace_update(self, v, indices):
    """A new tensor whose rows `indices` are the rows of v."""
    return ops.tensor_scatter_update(self, _rows("InplaceUpdate", self, v, indices), v)


@method
def inplace_add(self, v, indices):
    return ops.tensor_scatter_add(self, _rows("InplaceAdd", self, v, indices), v)


@method
def inplace_sub(self, v, indices):
    return ops.tensor_scatter_sub(self, _rows("InplaceSub", self, v, indices), v)


@method
def itemset(self, *args):
    """A new tensor with one element set: itemset(value) for a one-element tensor,
    itemset(index, value) with a flat int index or a tuple of ndim ints."""
    if len(args) not in (1, 2):
        raise TypeError("For 'Tensor.itemset', it needs 1 or 2 arguments, but got %d." % len(args))
    value = args[-1]
    if len(args) == 1:
        if self.size != 1:
            raise IndexError("For 'Tensor.itemset', with one argument the tensor must have one element, "
                             "but it has %d." % self.size)
        flat = 0
    elif isinstance(args[0], int):
        flat = args[0] % self.size if -self.size <= args[0] < self.size else None
        if flat is None:
            raise IndexError("For 'Tensor.itemset', index %d is out of bounds for size %d." % (args[0], self.size))
    else:
        index = tuple(args[0])
        if len(index) != self.ndim:
            raise ValueError("For 'Tensor.itemset', the length of the index must equal the tensor's ndim %d, "
                             "but got %d." % (self.ndim, len(index)))
        flat = int(np.ravel_multi_index(index, self.shape))
    mask = np.zeros(self.size, bool)
    mask[flat] = True
    return ops.select(Tensor(mask.reshape(self.shape)), ops.fill(self.dtype, self.shape, value), self)


@method
def choose(self, choices, mode="clip"):
    """out[i] = choices[self[i]][i]: self holds indices into the sequence `choices` (or the
    first axis of a choices tensor), all broadcast to one shape; out-of-range indices clip
    or wrap."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError("For 'Tensor.choose', the argument 'mode' should be one of in ['raise', 'wrap', 'clip'], "
                         "but got %s." % mode)
    if isinstance(choices, Tensor):
        stack = [choices[i] for i in range(choices.shape[0])]
    else:
        stack = [c if isinstance(c, Tensor) else Tensor(np.asarray(c)) for c in choices]
    if self.ndim == 0 or not stack:
        raise ValueError("For 'Tensor.choose', the original tensor and the argument 'choices' cannot be scalars.")
    shape = np.broadcast_shapes(tuple(self.shape), *[tuple(c.shape) for c in stack])
    n = len(stack)
    idx = _U.shape_deciding_values("Tensor.choose", self).astype(np.int64)
    if mode == "raise" and ((idx < 0) | (idx >= n)).any():
        raise ValueError("For 'Tensor.choose', the indices must be in [0, %d) in mode 'raise'." % n)
    idx = np.clip(idx, 0, n - 1) if mode == "clip" else np.mod(idx, n)
    index = _int_tensor(np.broadcast_to(idx, shape)[None])
    merged = ops.stack([ops.broadcast_to(c, shape) for c in stack], 0)
    return ops.squeeze(ops.gather_elements(merged, 0, index), 0)


# ---------------------------------------------------------------- shape and layout
@method
def batch_to_space_nd(self, block_shape, crops):
    return ops.batch_to_space_nd(self, block_shape, crops)


@method
def one_hot(self, depth, on_value, off_value, axis=-1):
    return ops.one_hot(self, depth, on_value, off_value, axis)


@method
def col2im(self, output_size, kernel_size, dilation, padding_value, stride):
    """Sliding blocks (N, C, kh*kw, L) summed back into (N, C, H, W): ops.fold of the blocks with
    the channel and kernel axes merged."""
    if self.ndim != 4:
        raise ValueError("For 'Col2Im', the dimension of 'input' must be 4, but got %d." % self.ndim)
    n, c, k, length = self.shape
    return ops.fold(ops.reshape(self, (n, c * k, length)), output_size, kernel_size, dilation, padding_value,
                    stride)


# ---------------------------------------------------------------- initialisation
@method
def to_tensor(self, slice_index=None, shape=None, opt_shard_group=None):
    """Deprecated in MindSpore for init_data, which it calls."""
    log.warning("WARN_DEPRECATED: The usage of to_tensor is deprecated. Please use init_data")
    return self.init_data(slice_index, shape, opt_shard_group)


@method
def flush_from_cache(self):
    """Tensors here never live in an embedding cache: there is nothing to flush."""
    return None


# Tensor.name(*args) is ops.name(self, *args) for these (MindSpore's Tensor pages refer each to
# the op); the more specific methods above come first.
_SAME_AS_OPS = (
    "addbmm", "addr", "adjoint", "aminmax", "angle", "approximate_equal", "baddbmm", "bincount",
    "bitwise_left_shift", "bitwise_right_shift", "cholesky", "cholesky_inverse", "copysign", "cov", "cross",
    "det", "diag_embed", "diagflat", "diagonal_scatter", "digamma", "dsplit", "erfinv", "float_power", "fmax",
    "fmin", "gcd", "geqrf", "heaviside", "histc", "hsplit", "hypot", "i0", "igamma", "igammac", "inverse",
    "isneginf", "isposinf", "isreal", "lcm", "ldexp", "lgamma", "logaddexp2", "logcumsumexp", "logdet",
    "lu_solve", "movedim", "msort", "mvlgamma", "nanquantile", "nextafter", "orgqr", "ormqr", "positive", "quantile",
    "random_categorical",
    "reverse", "reverse_sequence", "rot90", "select_scatter", "sgn", "slice_scatter", "slogdet", "t", "unfold",
    "unique_with_pad", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod", "vsplit", "xdivy",
)


def _same_as_op(name):
    # Looked up at the call: the ops modules that define some of these load after this one.
    def fn(self, *args, **kwargs):
        return getattr(ops, name)(self, *args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "mindspore.ops.%s with this tensor as its first input." % name
    return fn


for _name in _SAME_AS_OPS:
    _methods.setdefault(_name, _same_as_op(_name))


@method
def eq(self, other):
    return ops.equal(self, other)


@method
def nanmean(self, axis=None, keepdims=False, *, dtype=None):
    """The mean of the elements that are not NaN (NaN where all of a slice is NaN)."""
    keep = ops.logical_not(ops.isnan(self))
    zeroed = ops.select(keep, self, ops.zeros_like(self))
    axes = () if axis is None else axis
    total = ops.sum(zeroed, axes, keepdim=keepdims) if axes != () else ops.sum(zeroed)
    count = ops.sum(ops.cast(keep, self.dtype), axes, keepdim=keepdims) if axes != () else \
        ops.sum(ops.cast(keep, self.dtype))
    out = total / count
    return out if dtype is None else ops.cast(out, dtype)


@method
def nanmedian(self, axis=-1, keepdims=False):
    """(values, indices): the lower median of the elements that are not NaN along axis, and
    where it lies (NaN and index 0 for a slice of NaNs only)."""
    moved = ops.moveaxis(self, axis, -1)
    data = _U.shape_deciding_values("Tensor.nanmedian", moved)
    order = np.argsort(data, -1, kind="stable")  # NaNs sort last
    valid = (~np.isnan(data)).sum(-1, keepdims=True)
    picked = np.take_along_axis(order, np.maximum(valid - 1, 0) // 2, -1)
    picked = np.where(valid > 0, picked, 0)
    index = _int_tensor(picked)
    values = ops.gather_elements(moved, moved.ndim - 1, index)
    values = ops.select(Tensor(valid > 0), values, ops.fill(self.dtype, values.shape, float("nan")))
    if not keepdims:
        return ops.squeeze(values, -1), ops.squeeze(index, -1)
    return ops.moveaxis(values, -1, axis), ops.moveaxis(index, -1, axis)


@method
def fill_diagonal(self, fill_value, wrap=False):
    """A copy with the main diagonal (all indices equal) set to fill_value; for a tall matrix,
    wrap=True starts the diagonal again every N + 1 rows, as NumPy's fill_diagonal does."""
    if self.ndim < 2:
        raise ValueError("For 'Tensor.fill_diagonal', the dimension of the tensor must be at least 2, "
                         "but got %d." % self.ndim)
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise ValueError("For 'Tensor.fill_diagonal', all dimensions of a tensor of more than 2 dimensions must "
                         "be equal, but got %s." % (tuple(self.shape),))
    mask = np.zeros(tuple(self.shape), bool)
    np.fill_diagonal(mask, True, wrap=wrap)
    return ops.select(Tensor(mask), ops.fill(self.dtype, self.shape, fill_value), self)


@method
def masked_scatter(self, mask, source):
    """A copy whose positions where mask (broadcast to self) is True take source's elements
    in row-major order."""
    full = np.broadcast_to(_U.shape_deciding_values("Tensor.masked_scatter", mask) if isinstance(mask, Tensor)
                           else np.asarray(mask), tuple(self.shape))
    count = int(full.sum())
    if count > source.size:
        raise ValueError("For 'Tensor.masked_scatter', 'source' has %d elements but the mask selects %d."
                         % (source.size, count))
    where = np.flatnonzero(full)
    taken = ops.reshape(source, (-1,))[:count]
    flat = ops.tensor_scatter_update(ops.reshape(self, (-1,)), _int_tensor(where[:, None]), taken)
    return ops.reshape(flat, self.shape)


@method
def cholesky_solve(self, input2, upper=False):
    """X with A X = self, A given by its Cholesky factor input2 (lower, or upper when upper=True)."""
    return ops.matmul(ops.cholesky_inverse(input2, upper), self)


@method
def index_put(self, indices, values, accumulate=False):
    """A copy with self[indices] set to values (added to them when accumulate); indices is a
    tuple of index tensors, one per leading axis, broadcast together."""
    if not isinstance(indices, (tuple, list)) or not indices:
        raise TypeError("For 'Tensor.index_put', 'indices' must be a non-empty tuple of Tensors.")
    arrays = np.broadcast_arrays(*[_U.shape_deciding_values("Tensor.index_put", i) if isinstance(i, Tensor)
                                   else np.asarray(i) for i in indices])
    coords = np.stack([a.reshape(-1) for a in arrays], -1)
    coords = np.where(coords < 0, coords + np.asarray(self.shape[:coords.shape[1]]), coords)
    target = (coords.shape[0],) + tuple(self.shape[coords.shape[1]:])
    vals = ops.broadcast_to(values if isinstance(values, Tensor) else Tensor(np.asarray(values), self.dtype),
                            target)
    scatter = ops.tensor_scatter_add if accumulate else ops.tensor_scatter_update
    return scatter(self, _int_tensor(coords), ops.cast(vals, self.dtype))


def _install():
    for name, fn in _methods.items():
        if not _defines(Tensor, name):
            setattr(Tensor, name, fn)


_install()

"""mindspore.common.sparse_tensor: COOTensor, CSRTensor and RowTensor (and the deprecated
SparseTensor), as MindSpore 2.2 documents them, written over mindspore.ops.

The index tensors are constants of the sparse tensor (MindSpore stop-gradients them); the values are
an ordinary Tensor, and everything computed from them (to_dense, mv, mm, sum, arithmetic) goes
through recorded ops, so a gradient flows back to the values and the debugger shows each op.
Index bookkeeping (the row of each CSR entry, sorting COO entries by row) is done with NumPy on the
index values, which the caller gives as concrete tensors."""
import numpy as np

import mindspore
from mindspore import Tensor
from mindspore import log as logger
from mindspore.common import dtype as mstype

__all__ = ["RowTensorInner", "RowTensor", "SparseTensor", "COOTensor", "CSRTensor"]

_INDEX_DTYPES = (mstype.int16, mstype.int32, mstype.int64)


def _ops():
    import mindspore.ops as ops  # mindspore.ops imports this module's users, not the reverse
    return ops


def _is_tensor(x):
    return isinstance(x, Tensor)


def _shape_tuple(who, shape):
    if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
        raise TypeError("For '%s', 'shape' must be a tuple of int, but got %s." % (who, shape))
    if any(d < 0 for d in shape):
        raise ValueError("For '%s', the elements of 'shape' must be non-negative, but got %s." % (who, shape))
    return shape


def _index_dtype(who, name, t):
    if t.dtype not in _INDEX_DTYPES:
        raise TypeError("For '%s', the dtype of '%s' must be int16, int32 or int64, but got %s."
                        % (who, name, t.dtype))


def _values_repr(t):
    return repr(t)


def _stop(t):
    return _ops().stop_gradient(t)


def _rows_of(indptr_np, count):
    """The row of each of `count` stored entries of a CSR matrix with row pointers indptr_np."""
    lengths = np.diff(indptr_np)
    return np.repeat(np.arange(len(lengths), dtype=indptr_np.dtype), lengths)[:count]


# ------------------------------------------------------------------------------------------------
class COOTensor:
    """dense[indices[i]] = values[i]; duplicate coordinates are summed by to_dense (they are not
    coalesced otherwise)."""

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError("Expect input `coo_tensor` to be a COOTensor, but got %s" % type(coo_tensor))
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `coo_tensor` is provided, `indices`, `values`, `shapes` should all be `None`")
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        else:
            if not (_is_tensor(indices) and _is_tensor(values)) or not isinstance(shape, tuple):
                raise TypeError("Inputs must follow: COOTensor(indices, values, shape).")
            _shape_tuple("COOTensor", shape)
            if indices.ndim != 2:
                raise ValueError("For COOTensor, 'indices' must be a 2-D tensor, but got %d-D." % indices.ndim)
            if values.ndim != 1:
                raise ValueError("For COOTensor, 'values' must be a 1-D tensor, but got %d-D." % values.ndim)
            if indices.shape[0] != values.shape[0]:
                raise ValueError("For COOTensor, indices.shape[0] must equal values.shape[0], but got %d and %d."
                                 % (indices.shape[0], values.shape[0]))
            if indices.shape[1] != len(shape):
                raise ValueError("For COOTensor, indices.shape[1] must equal the rank of 'shape' (%d), but got %d."
                                 % (len(shape), indices.shape[1]))
            _index_dtype("COOTensor", "indices", indices)
            indices = _stop(indices)
        self._indices, self._values, self._shape = indices, values, tuple(shape)

    indices = property(lambda self: self._indices, doc="The coordinates, shape (N, ndims).")
    values = property(lambda self: self._values, doc="The stored values, shape (N,).")
    shape = property(lambda self: self._shape, doc="The dense shape.")
    dtype = property(lambda self: self._values.dtype)
    size = property(lambda self: self._values.size, doc="The number of stored values.")
    itemsize = property(lambda self: self._values.itemsize)
    ndim = property(lambda self: len(self._shape))

    def __repr__(self):
        return "COOTensor(shape=%s, dtype=%s, indices=%s, values=%s)" % (
            list(self._shape), self.dtype, _values_repr(self._indices), _values_repr(self._values))

    __str__ = __repr__

    def _same_shape(self, other):
        if self.shape != tuple(other.shape):
            raise ValueError("Input tensors should have the same shape.")

    def __neg__(self):
        return COOTensor(self.indices, -self.values, self.shape)

    def __add__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            return _ops().tensor_scatter_add(other, self.indices, self.values)
        if isinstance(other, COOTensor):
            return coo_add(self, other, Tensor(0, self.values.dtype))
        raise TypeError("COOTensor add with %s is not supported." % type(other))

    def __sub__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            return _ops().tensor_scatter_add(-other, self.indices, self.values)
        if isinstance(other, COOTensor):
            return coo_add(self, -other, Tensor(0, self.values.dtype))
        raise TypeError("COOTensor subtract with %s is not supported." % type(other))

    def __mul__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            return COOTensor(self.indices, self.values * _ops().gather_nd(other, self.indices), self.shape)
        raise TypeError("COOTensor multiply with %s is not supported." % type(other))

    def __truediv__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            logger.warning("For sparse divide, zero values in the dense tensor are ignored.")
            return COOTensor(self.indices, self.values / _ops().gather_nd(other, self.indices), self.shape)
        raise TypeError("COOTensor divide with %s is not supported." % type(other))

    __div__ = __truediv__

    def to_dense(self):
        zeros = _ops().zeros(self.shape, self.values.dtype)
        return _ops().tensor_scatter_add(zeros, self.indices, self.values)

    def to_csr(self):
        if self.ndim != 2:
            raise ValueError("Currently only support 2-D COOTensor when converting to CSRTensor.")
        rows = self.indices.asnumpy()[:, 0]
        order = np.argsort(rows, kind="stable")
        indptr = np.zeros(self.shape[0] + 1, self.indices.asnumpy().dtype)
        np.add.at(indptr, rows[order] + 1, 1)
        indptr = np.cumsum(indptr).astype(indptr.dtype)
        take = Tensor(order.astype(np.int64))
        columns = Tensor(self.indices.asnumpy()[order, 1])
        return CSRTensor(Tensor(indptr), columns, _ops().gather(self.values, take, 0), self.shape)

    def coalesce(self):
        """Duplicate coordinates summed, coordinates in row-major order."""
        idx = self.indices.asnumpy()
        unique, inverse = np.unique(idx, axis=0, return_inverse=True)
        inverse = Tensor(inverse.reshape(-1, 1).astype(np.int64))
        summed = _ops().tensor_scatter_add(_ops().zeros((unique.shape[0],), self.values.dtype), inverse, self.values)
        return COOTensor(Tensor(unique.astype(idx.dtype)), summed, self.shape)

    def astype(self, dtype):
        return COOTensor(self.indices, self.values.astype(dtype), self.shape)

    def to_tuple(self):
        return self.indices, self.values, self.shape

    def abs(self):
        return COOTensor(self.indices, self.values.abs(), self.shape)

    def add(self, other, thresh):
        return coo_add(self, other, thresh)


class SparseTensor(COOTensor):
    """The name of COOTensor before MindSpore 1.7 (deprecated there)."""

    def __init__(self, indices, values, shape):
        logger.warning("'SparseTensor' is deprecated from version 1.7 and will be removed in a future version. "
                       "Please use 'COOTensor' instead.")
        super().__init__(indices, values, shape)


def coo_add(x1, x2, thresh):
    """x1 + x2 as a COOTensor: entries at the same coordinate summed, entries whose magnitude is
    below `thresh` dropped, coordinates in row-major order."""
    if not (isinstance(x1, COOTensor) and isinstance(x2, COOTensor)):
        raise TypeError("For 'coo_add', the inputs must be COOTensors.")
    if x1.shape != x2.shape:
        raise ValueError("For 'coo_add', the shapes of the inputs must be the same, but got %s and %s."
                         % (x1.shape, x2.shape))
    ops = _ops()
    both = COOTensor(ops.concat((x1.indices, x2.indices.astype(x1.indices.dtype)), 0),
                     ops.concat((x1.values, x2.values.astype(x1.values.dtype)), 0), x1.shape).coalesce()
    limit = float(thresh.asnumpy()) if isinstance(thresh, Tensor) else float(thresh)
    keep = np.nonzero(np.abs(both.values.asnumpy()) >= limit)[0]
    if keep.size == both.values.shape[0]:
        return both
    take = Tensor(keep.astype(np.int64))
    return COOTensor(Tensor(both.indices.asnumpy()[keep]), ops.gather(both.values, take, 0), x1.shape)


# ------------------------------------------------------------------------------------------------
class CSRTensor:
    """Row i holds values[indptr[i]:indptr[i + 1]] at the columns indices[indptr[i]:indptr[i + 1]];
    values may carry trailing dimensions (values.shape[1:] == shape[2:])."""

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError("Expect input `csr_tensor` to be a CSRTensor, but got %s" % type(csr_tensor))
            if not (indptr is None and indices is None and values is None and shape is None):
                raise TypeError("If input `csr_tensor` is provided, `indptr`, `indices`, `values`, "
                                "`shapes` should all be `None`")
            indptr, indices, values, shape = csr_tensor.indptr, csr_tensor.indices, csr_tensor.values, csr_tensor.shape
        else:
            if not (_is_tensor(indptr) and _is_tensor(indices) and _is_tensor(values)) or not isinstance(shape, tuple):
                raise TypeError("Inputs must follow: CSRTensor(indptr, indices, values, shape).")
            _shape_tuple("CSRTensor", shape)
            if len(shape) < 2:
                raise ValueError("For CSRTensor, 'shape' must have at least 2 dimensions, but got %s." % (shape,))
            if indptr.ndim != 1 or indices.ndim != 1:
                raise ValueError("For CSRTensor, 'indptr' and 'indices' must be 1-D tensors.")
            if indptr.shape[0] != shape[0] + 1:
                raise ValueError("For CSRTensor, indptr must have shape[0] + 1 = %d elements, but got %d."
                                 % (shape[0] + 1, indptr.shape[0]))
            if values.ndim < 1 or values.shape[0] != indices.shape[0]:
                raise ValueError("For CSRTensor, values.shape[0] must equal indices.shape[0], but got values "
                                 "of shape %s and %d indices." % (values.shape, indices.shape[0]))
            if tuple(values.shape[1:]) != tuple(shape[2:]):
                raise ValueError("For CSRTensor, values.shape[1:] must equal shape[2:], but got %s and %s."
                                 % (tuple(values.shape[1:]), tuple(shape[2:])))
            _index_dtype("CSRTensor", "indptr", indptr)
            _index_dtype("CSRTensor", "indices", indices)
            indptr, indices = _stop(indptr), _stop(indices)
        self._indptr, self._indices, self._values, self._shape = indptr, indices, values, tuple(shape)

    indptr = property(lambda self: self._indptr, doc="Where each row's values start and end.")
    indices = property(lambda self: self._indices, doc="The column of each stored value.")
    values = property(lambda self: self._values)
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._values.dtype)
    size = property(lambda self: self._values.size, doc="The number of stored values.")
    itemsize = property(lambda self: self._values.itemsize)
    ndim = property(lambda self: len(self._shape))

    def __repr__(self):
        return "CSRTensor(shape=%s, dtype=%s, indptr=%s, indices=%s, values=%s)" % (
            list(self._shape), self.dtype, _values_repr(self._indptr), _values_repr(self._indices),
            _values_repr(self._values))

    __str__ = __repr__

    def _coordinates(self):
        """(N, 2) int64 (row, column) of each stored value."""
        rows = _rows_of(self.indptr.asnumpy().astype(np.int64), self.values.shape[0])
        return np.stack([rows, self.indices.asnumpy().astype(np.int64)], axis=1)

    def __neg__(self):
        return CSRTensor(self.indptr, self.indices, -self.values, self.shape)

    def __add__(self, other):
        if self.shape != tuple(other.shape):
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, CSRTensor):
            one = Tensor(1, self.values.dtype)
            return csr_add(self, other, one, one)
        raise TypeError("CSRTensor add with %s is not supported." % type(other))

    def __sub__(self, other):
        if self.shape != tuple(other.shape):
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, CSRTensor):
            return csr_add(self, other, Tensor(1, self.values.dtype), Tensor(-1, self.values.dtype))
        raise TypeError("CSRTensor subtract with %s is not supported." % type(other))

    def __mul__(self, other):
        return csr_mul(self, other)

    def __truediv__(self, other):
        logger.warning("For CSR divide, zero values in the dense tensor are ignored.")
        return csr_div(self, other)

    __div__ = __truediv__

    def to_tuple(self):
        return self.indptr, self.indices, self.values, self.shape

    def to_coo(self):
        if self.ndim != 2:
            raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
        coords = self._coordinates().astype(self.indices.asnumpy().dtype)
        return COOTensor(Tensor(coords), self.values, self.shape)

    def to_dense(self):
        zeros = _ops().zeros(self.shape, self.values.dtype)
        return _ops().tensor_scatter_add(zeros, Tensor(self._coordinates()), self.values)

    def astype(self, dtype):
        return CSRTensor(self.indptr, self.indices, self.values.astype(dtype), self.shape)

    def mv(self, dense_vector):
        if not isinstance(dense_vector, Tensor):
            raise TypeError("For 'CSRTensor.mv', the 'dense_vector' must be a Tensor, but got %s."
                            % type(dense_vector).__name__)
        return csr_mv(self, dense_vector)

    def mm(self, matrix):
        if isinstance(matrix, CSRTensor):
            raise RuntimeError("For 'CSRTensor.mm', a CSRTensor right operand is supported on GPU only; "
                               "multiply by matrix.to_dense() on CPU.")
        if not isinstance(matrix, Tensor):
            raise TypeError("For 'CSRTensor.mm', the 'matrix' must be a Tensor or CSRTensor, but got %s."
                            % type(matrix).__name__)
        if self.ndim != 2 or matrix.ndim != 2 or matrix.shape[0] != self.shape[1]:
            raise ValueError("For 'CSRTensor.mm', the CSRTensor of shape %s cannot multiply a matrix of shape %s."
                             % (self.shape, matrix.shape))
        return _ops().matmul(self.to_dense(), matrix.astype(self.values.dtype))

    def sum(self, axis):
        return csr_reduce_sum(self, axis)

    def abs(self):
        return CSRTensor(self.indptr, self.indices, self.values.abs(), self.shape)

    def add(self, b, alpha, beta):
        return csr_add(self, b, alpha, beta)


def _dense_at(csr, y, who):
    """The elements of dense y (broadcast to csr's shape) at csr's stored coordinates."""
    if isinstance(y, (int, float, bool)):
        y = Tensor(y)
    if not isinstance(y, Tensor):
        raise TypeError("For '%s', the second input must be a Tensor, but got %s." % (who, type(y).__name__))
    if y.size == 1 and y.ndim <= 2:
        return y.reshape(()).astype(csr.values.dtype), True
    if y.ndim > csr.ndim:
        raise ValueError("For '%s', dense tensor cannot broadcast to the sparse tensor." % who)
    ops = _ops()
    full = ops.broadcast_to(y.astype(csr.values.dtype), csr.shape)
    return ops.gather_nd(full, Tensor(csr._coordinates())), False


def csr_mul(x, y):
    """x * y for a CSRTensor x and a dense y broadcast to it: a CSRTensor (the stored values'
    products) or, for a scalar y, the products as a dense Tensor of x's values' shape."""
    at, scalar = _dense_at(x, y, "csr_mul")
    if scalar:
        return x.values * at
    return CSRTensor(x.indptr, x.indices, x.values * at, x.shape)


def csr_div(x, y):
    at, scalar = _dense_at(x, y, "csr_div")
    if scalar:
        return x.values / at
    return CSRTensor(x.indptr, x.indices, x.values / at, x.shape)


def csr_mv(csr_tensor, dense):
    if csr_tensor.ndim != 2 or dense.ndim != 2 or dense.shape != (csr_tensor.shape[1], 1):
        raise ValueError("For 'csr_mv', the dense vector must have shape (%d, 1), but got %s."
                         % (csr_tensor.shape[1], dense.shape))
    return _ops().matmul(csr_tensor.to_dense(), dense.astype(csr_tensor.values.dtype))


def csr_reduce_sum(csr_tensor, axis):
    """The sum over `axis` (0 or 1), keeping the dimension, as a dense Tensor."""
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError("For 'csr_reduce_sum', 'axis' must be an int, but got %s." % type(axis).__name__)
    if not -csr_tensor.ndim <= axis < csr_tensor.ndim:
        raise ValueError("For 'csr_reduce_sum', 'axis' must be in [%d, %d), but got %d."
                         % (-csr_tensor.ndim, csr_tensor.ndim, axis))
    return _ops().sum(csr_tensor.to_dense(), axis, keepdim=True)


def csr_add(a, b, alpha, beta):
    """alpha * a + beta * b for CSRTensors of one shape."""
    if not (isinstance(a, CSRTensor) and isinstance(b, CSRTensor)):
        raise TypeError("For 'csr_add', the inputs must be CSRTensors.")
    if a.shape != b.shape:
        raise ValueError("For 'csr_add', the shapes of the inputs must be the same, but got %s and %s."
                         % (a.shape, b.shape))
    ops = _ops()
    coords = np.concatenate([a._coordinates(), b._coordinates()])
    values = ops.concat((a.values * alpha.astype(a.values.dtype), b.values.astype(a.values.dtype) * beta.astype(a.values.dtype)), 0)
    summed = COOTensor(Tensor(coords), values, a.shape).coalesce().to_csr()
    dtype = a.indices.asnumpy().dtype
    return CSRTensor(Tensor(summed.indptr.asnumpy().astype(dtype)), Tensor(summed.indices.asnumpy().astype(dtype)),
                     summed.values, a.shape)


# ------------------------------------------------------------------------------------------------
class RowTensorInner:
    """dense[indices[i], ...] = values[i, ...]: slices of a tensor at given rows."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensorInner):
                raise TypeError("Expect input `row_tensor` to be a RowTensor, but got %s" % type(row_tensor))
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `row_tensor` is provided, `indices`, `values`, `shapes` should all be `None`")
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        elif not (_is_tensor(indices) and _is_tensor(values)) or not isinstance(shape, tuple):
            raise TypeError("Inputs must follow: RowTensor(indices, values, shape).")
        self._indices, self._values, self._shape = indices, values, tuple(shape)

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._shape)

    def __repr__(self):
        return "RowTensor(dense_shape=%s, indices=%s, values=%s)" % (
            list(self._shape), _values_repr(self._indices), _values_repr(self._values))


class RowTensor(RowTensorInner):
    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        logger.warning("'RowTensor' is deprecated from version 1.7 and will be removed in a future version.")
        super().__init__(indices, values, shape, row_tensor)


# ------------------------------------------------------------------------------------------------
def _export():
    import mindspore.common as common
    for cls in (COOTensor, CSRTensor, RowTensor, RowTensorInner, SparseTensor):
        cls.__module__ = __name__
        for module in (mindspore, common):
            if not hasattr(module, cls.__name__):
                setattr(module, cls.__name__, cls)


_export()

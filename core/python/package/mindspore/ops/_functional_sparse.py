"""The sparse functions of mindspore.ops (MindSpore 2.2's ops/function/sparse_func.py and
sparse_unary_func.py) and Tensor.to_coo / to_csr, over mindspore.common.sparse_tensor.

The unary coo_* / csr_* functions apply their dense function to the stored values only, as
MindSpore's do: the coordinates stay, so a function that is nonzero at 0 (cos, exp) is not
applied to the implicit zeros."""
import numpy as np

import mindspore.ops as _ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.common.sparse_tensor import (COOTensor, CSRTensor, coo_add, csr_add, csr_div,  # noqa: F401
                                            csr_mul, csr_mv, csr_reduce_sum)
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export


def _check(who, x, cls):
    if not isinstance(x, cls):
        raise TypeError("For functional operator %s, input argument must be a %s." % (who, cls.__name__))
    return x


def _dense_2d(who, tensor):
    U.check_tensor(who, "tensor", tensor)
    if tensor.ndim != 2:
        raise ValueError("For '%s', the input must be a 2-D Tensor, but got %d-D." % (who, tensor.ndim))
    return tensor


@export()
def dense_to_sparse_coo(tensor):
    _dense_2d("dense_to_sparse_coo", tensor)
    coords = np.argwhere(tensor.asnumpy() != 0).astype(np.int64)
    values = _ops.gather_nd(tensor, Tensor(coords))
    return COOTensor(Tensor(coords), values, tuple(tensor.shape))


@export()
def dense_to_sparse_csr(tensor):
    _dense_2d("dense_to_sparse_csr", tensor)
    return dense_to_sparse_coo(tensor).to_csr().astype(tensor.dtype)


@export()
def csr_to_coo(tensor):
    _check("csr_to_coo", tensor, CSRTensor)
    return tensor.to_coo()


@export()
def csr_to_dense(csr_tensor):
    _check("csr_to_dense", csr_tensor, CSRTensor)
    if csr_tensor.ndim > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    return csr_tensor.to_dense()


@export()
def coo_to_csr(tensor):
    _check("coo_to_csr", tensor, COOTensor)
    return tensor.to_csr()


@export()
def coo_to_dense(tensor):
    _check("coo_to_dense", tensor, COOTensor)
    return tensor.to_dense()


@export()
def coalesce(x_indices, x_values, x_shape):
    """Indices of shape (ndims, N) (MindSpore's Coalesce layout), values (N,), shape (ndims,):
    the unique coordinates in row-major order with their values summed, and the shape."""
    for name, t in (("x_indices", x_indices), ("x_values", x_values), ("x_shape", x_shape)):
        U.check_tensor("Coalesce", name, t)
    if x_indices.ndim != 2 or x_values.ndim != 1 or x_shape.ndim != 1:
        raise ValueError("For 'Coalesce', x_indices must be 2-D and x_values, x_shape 1-D.")
    if x_indices.shape[1] != x_values.shape[0] or x_indices.shape[0] != x_shape.shape[0]:
        raise ValueError("For 'Coalesce', x_indices of shape %s does not match x_values of shape %s and "
                         "x_shape of shape %s." % (x_indices.shape, x_values.shape, x_shape.shape))
    idx = x_indices.asnumpy()
    bounds = x_shape.asnumpy().reshape(-1, 1)
    if (idx < 0).any() or (idx >= bounds).any():
        raise ValueError("For 'Coalesce', the elements of x_indices must be in [0, x_shape).")
    shape = tuple(int(d) for d in x_shape.asnumpy())
    merged = COOTensor(Tensor(idx.T.astype(np.int64)), x_values, shape).coalesce()
    return merged.indices.transpose(), merged.values, x_shape


@export()
def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """a @ b for two CSRTensors (each optionally transposed; adjoint is the conjugate transpose),
    as a CSRTensor."""
    if not (isinstance(a, CSRTensor) and isinstance(b, CSRTensor)):
        raise TypeError("For functional operator csr_mm, inputs a and b must be type of CSRTensor currently.")
    left, right = a.to_dense(), b.to_dense()
    if trans_a or adjoint_a:
        left = _ops.conj(left.T) if adjoint_a else left.T
    if trans_b or adjoint_b:
        right = _ops.conj(right.T) if adjoint_b else right.T
    if left.shape[1] != right.shape[0]:
        raise ValueError("For 'csr_mm', the shapes %s and %s cannot be multiplied." % (left.shape, right.shape))
    product = _ops.matmul(left, right)
    coords = np.argwhere(product.asnumpy() != 0).astype(np.int64)
    coo = COOTensor(Tensor(coords), _ops.gather_nd(product, Tensor(coords)), tuple(product.shape))
    csr = coo.to_csr()
    dtype = a.indices.dtype
    return CSRTensor(csr.indptr.astype(dtype), csr.indices.astype(dtype), csr.values, csr.shape)


@export()
def csr_softmax(logits, dtype):
    """Softmax over each row's stored values of a 2-D CSRTensor (the implicit zeros take no part)."""
    _check("csr_softmax", logits, CSRTensor)
    if logits.ndim != 2:
        raise ValueError("For 'csr_softmax', the logits must be a 2-D CSRTensor.")
    if dtype not in (mstype.float32, mstype.float64):
        raise TypeError("For 'csr_softmax', dtype must be float32 or float64, but got %s." % dtype)
    coords = Tensor(logits._coordinates())
    stored = _ops.tensor_scatter_update(_ops.zeros(logits.shape, mstype.bool_), coords,
                                        _ops.ones((coords.shape[0],), mstype.bool_))
    dense = _ops.masked_fill(logits.to_dense().astype(dtype), ~stored, float("-inf"))
    row_max = _ops.stop_gradient(_ops.max(_ops.masked_fill(dense, ~stored, float("-inf")), 1, keepdims=True)[0])
    row_max = _ops.masked_fill(row_max, _ops.isinf(row_max), 0.0)
    e = _ops.masked_fill(_ops.exp(dense - row_max), ~stored, 0.0)
    probabilities = e / _ops.maximum(_ops.sum(e, 1, keepdim=True), Tensor(np.finfo(np.float32).tiny, dtype))
    return CSRTensor(logits.indptr, logits.indices, _ops.gather_nd(probabilities, coords), logits.shape)


# The unary functions on the stored values.
_UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1",
          "floor", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu", "relu6", "round", "sigmoid",
          "sin", "sinh", "softsign", "sqrt", "square", "tan", "tanh")


def _unary(kind, name):
    dense = getattr(_ops, name)

    def apply(x):
        if kind == "coo":
            _check("coo_" + name, x, COOTensor)
            return COOTensor(x.indices, dense(x.values), x.shape)
        _check("csr_" + name, x, CSRTensor)
        return CSRTensor(x.indptr, x.indices, dense(x.values), x.shape)

    apply.__name__ = "%s_%s" % (kind, name)
    apply.__doc__ = "%s applied to the stored values of a %s." % (name, "COOTensor" if kind == "coo" else "CSRTensor")
    return apply


def _inv(x):
    return _ops.reciprocal(x)


if not hasattr(_ops, "inv"):
    _ops.inv = _inv
for _kind in ("coo", "csr"):
    for _name in _UNARY + ("inv",):
        U.export_as("%s_%s" % (_kind, _name), _unary(_kind, _name))
U.export_as("coo_add", coo_add)
U.export_as("csr_add", csr_add)


@export()
def coo_concat(sp_input, concat_dim=0):
    """COOTensors of one rank concatenated along concat_dim, as a COOTensor."""
    if not isinstance(sp_input, (tuple, list)) or not sp_input:
        raise TypeError("For 'coo_concat', sp_input must be a non-empty tuple or list of COOTensors.")
    for t in sp_input:
        _check("coo_concat", t, COOTensor)
    rank = sp_input[0].ndim
    if not -rank <= concat_dim < rank:
        raise ValueError("For 'coo_concat', concat_dim must be in [%d, %d), but got %d." % (-rank, rank, concat_dim))
    axis = concat_dim % rank
    offset, coords, values = 0, [], []
    shape = list(sp_input[0].shape)
    for t in sp_input:
        other = [d for i, d in enumerate(t.shape) if i != axis]
        if other != [d for i, d in enumerate(shape) if i != axis]:
            raise ValueError("For 'coo_concat', the shapes must agree except along concat_dim.")
        c = t.indices.asnumpy().astype(np.int64).copy()
        c[:, axis] += offset
        offset += t.shape[axis]
        coords.append(c)
        values.append(t.values)
    shape[axis] = offset
    return COOTensor(Tensor(np.concatenate(coords)), _ops.concat(values, 0), tuple(shape))


def _tensor_to_coo(self):
    return dense_to_sparse_coo(self)


def _tensor_to_csr(self):
    return dense_to_sparse_csr(self)


if not hasattr(Tensor, "to_coo"):
    Tensor.to_coo = _tensor_to_coo
if not hasattr(Tensor, "to_csr"):
    Tensor.to_csr = _tensor_to_csr

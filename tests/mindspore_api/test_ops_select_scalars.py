"""ops.select (and F.select) with a scalar operand: an int goes with an int32 Tensor and a float
with a float32 one, as MindSpore's functional select requires (TypeError otherwise); values
against np.where, in PyNative and in a jit function."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import functional as F

from _check import close, raises

cond = np.array([[True, False], [False, True]])
xi = np.array([[12, 1], [1, 0]], np.int32)
xf = np.array([[1.5, -2.0], [3.0, 4.0]], np.float32)
close(ops.select(Tensor(cond), Tensor(xi), 2), np.where(cond, xi, 2))
close(ops.select(Tensor(cond), 0.5, Tensor(xf)), np.where(cond, 0.5, xf))
close(F.select(Tensor(cond), Tensor(xf), Tensor(-xf)), np.where(cond, xf, -xf))
raises(TypeError, ops.select, Tensor(cond), Tensor(xi), 2.0,
       match="For functional operator[select], the input[y] is float, then the input[x] must be a Tensor of float32.")
raises(TypeError, F.select, Tensor(cond), Tensor(xf), 2,
       match="the input[y] is int, then the input[x] must be a Tensor of int32.")
raises(TypeError, ops.select, Tensor(cond), 1, Tensor(xi.astype(np.int64)), match="the input[x] is int")
raises(TypeError, ops.select, Tensor(cond), Tensor(xf.astype(np.float16)), 0.0, match="Tensor of float32")


@ms.jit
def masked(c, v):
    return ops.select(c, v, 0.0)


close(masked(Tensor(cond), Tensor(xf)), np.where(cond, xf, 0.0))

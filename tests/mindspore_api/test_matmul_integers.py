"""MatMul / BatchMatMul on the integer dtypes MindSpore's CPU kernels take (UInt8, Int8, Int16,
Int32, Int64): exact products in the input's dtype, wrapping on overflow; the other integer dtypes
and Bool are MindSpore's TypeError; gradients stay integers."""
import numpy as np
import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import operations as P

from _check import raises

x = np.arange(6).reshape(2, 3)
y = np.arange(12).reshape(3, 4)
for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8):
    out = P.MatMul()(Tensor(x.astype(dt)), Tensor(y.astype(dt)))
    assert out.dtype == Tensor(x.astype(dt)).dtype, out.dtype
    assert np.array_equal(out.asnumpy(), (x @ y).astype(dt)), (dt, out)
out = P.MatMul(transpose_b=True)(Tensor(x.astype(np.int16)), Tensor(x.astype(np.int16)))
assert np.array_equal(out.asnumpy(), (x @ x.T).astype(np.int16))
# 2**62 * 2 + 2**62 * 2 = 2**64: wraps to 0 in Int64, as the CPU kernel's integer arithmetic does.
wrapped = P.MatMul()(Tensor(np.full((1, 2), 2**62, np.int64)), Tensor(np.full((2, 1), 2, np.int64)))
assert wrapped.asnumpy()[0, 0] == 0
for dt in (ms.uint16, ms.uint32, ms.uint64, ms.bool_):
    raises(TypeError, P.MatMul(), Tensor(x).astype(dt), Tensor(y).astype(dt),
           match="For 'MatMul', the type of 'x1' should be Tensor[UInt8, Int8, Int16, Int32, Int64")
batched = ops.matmul(Tensor(np.ones((2, 2, 3), np.int32)), Tensor(np.ones((2, 3, 2), np.int32)))
assert batched.dtype == ms.int32 and np.array_equal(batched.asnumpy(), np.full((2, 2, 2), 3))
ga, gb = ms.grad(lambda a, b: ops.matmul(a, b).sum(), grad_position=(0, 1))(
    Tensor(x.astype(np.int32)), Tensor(y.astype(np.int32)))
assert ga.dtype == ms.int32 and np.array_equal(ga.asnumpy(), np.ones((2, 4)) @ y.T)
assert np.array_equal(gb.asnumpy(), x.T @ np.ones((2, 4)))

"""IndexAdd (and the scatter sums sharing its kernel) pass the gradient to the added values for
every dtype, as MindSpore's bprop does: d/dy of index_add(x, idx, y, axis) is dout gathered at idx.
float16 and integer inputs are summed in float64 and cast back, so their values stay exact."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops

from _check import close

dout = np.arange(63, 78).reshape(5, 3)
for dtype, npt in ((ms.float16, np.float16), (ms.int32, np.int32), (ms.uint8, np.uint8), (ms.float32, np.float32)):
    x = Tensor(np.arange(15).reshape(5, 3).astype(npt))
    y = Tensor(np.arange(10).reshape(5, 2).astype(npt))
    idx = Tensor(np.array([2, 0], np.int32))

    out = ops.index_add(x, idx, y, 1)
    want = np.arange(15).reshape(5, 3).astype(npt)
    want[:, [2, 0]] += np.arange(10).reshape(5, 2).astype(npt)
    assert out.dtype == dtype and (out.asnumpy() == want).all(), (dtype, out)

    grads = ops.GradOperation(get_all=True, sens_param=True)(lambda a, b: ops.index_add(a, idx, b, 1))(
        x, y, Tensor(dout.astype(npt)))
    close(grads[0], dout.astype(npt))
    close(grads[1], dout[:, [2, 0]].astype(npt))
    assert grads[1].dtype == dtype

# a repeated index accumulates (into float16 as well)
x = Tensor(np.zeros((3,), np.float16))
close(ops.index_add(x, Tensor(np.array([1, 1], np.int32)), Tensor(np.array([0.5, 0.25], np.float16)), 0),
      np.array([0, 0.75, 0], np.float16))

# A gradient through 200,000 chained ops: releasing the tape must not recurse once per node.
# expect-exit: 0
import numpy as np
import mindspore as ms
from mindspore import Tensor


def chain(x):
    for _ in range(200_000):
        x = x * 1.0
    return x.sum()


g = ms.grad(chain)(Tensor(np.ones(3, np.float32)))
assert np.array_equal(g.asnumpy(), np.ones(3, np.float32)), g
print("long tape ok")

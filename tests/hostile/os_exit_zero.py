# os._exit(0) ends the run as a normal end (as sys.exit(0)), with the step report: a training script
# that skips Python's slow teardown this way still gets its report.
# expect-exit: 0
# expect-output: ^ +1 +[0-9.]+
# max-seconds: 60
import os

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, ops

w = Parameter(Tensor(np.ones(3, np.float32)), name="w")
loss, grads = ms.value_and_grad(lambda x: ops.sum(x * w), None, [w])(Tensor(np.ones(3, np.float32)))
os._exit(0)

"""nn LGamma, DiGamma, IGamma, LBeta, MatInverse and MatDet (over the ops special and linear-algebra
functions) against math / NumPy closed forms, gradients, and their argument errors."""
import math

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import close, raises

x = np.array([0.5, 1.0, 2.5, 7.0])
close(nn.LGamma()(Tensor(x)), [math.lgamma(v) for v in x], atol=1e-12)
# digamma(1) = -Euler's gamma; digamma(x + 1) = digamma(x) + 1 / x.
euler = 0.5772156649015329
close(nn.DiGamma()(Tensor(np.array([1.0, 2.0, 3.0]))), [-euler, 1 - euler, 1.5 - euler], rtol=1e-10)
close(ms.grad(lambda t: nn.LGamma()(t).sum())(Tensor(x)), nn.DiGamma()(Tensor(x)).asnumpy(), rtol=1e-8)
# P(1, x) = 1 - e^-x; P(2, x) = 1 - e^-x (1 + x).
close(nn.IGamma()(Tensor(np.array([1.0, 2.0])), Tensor(np.array([1.0, 3.0]))),
      [1 - math.exp(-1), 1 - math.exp(-3) * 4], rtol=1e-10)
close(nn.LBeta()(Tensor(np.array([2.0, 0.5])), Tensor(np.array([3.0, 0.5]))), [math.log(1 / 12), math.log(math.pi)],
      rtol=1e-10)
raises(TypeError, nn.LGamma(), Tensor(np.array([1, 2], np.int32)), match="dtype of 'x' must be float16")

spd = np.array([[[4.0, 1.0], [1.0, 3.0]], [[2.0, 0.5], [0.5, 1.0]]])
close(nn.MatInverse()(Tensor(spd)), np.linalg.inv(spd))
close(nn.MatDet()(Tensor(spd)), np.linalg.det(spd))
close(ms.grad(lambda t: nn.MatDet()(t).sum())(Tensor(spd)),
      np.linalg.det(spd)[:, None, None] * np.transpose(np.linalg.inv(spd), (0, 2, 1)))
raises(ValueError, nn.MatDet(), Tensor(np.ones((2, 3))), match="square matrices")

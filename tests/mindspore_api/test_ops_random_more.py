"""random_gamma, random_poisson, multinomial_with_replacement and log_uniform_candidate_sampler:
shapes, dtypes, sample moments and error texts."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, raises

ms.set_seed(5)
g = ops.random_gamma(Tensor(np.array([4000]), ms.int32), Tensor(np.array([0.5, 3.0], np.float32)))
assert g.shape == (4000, 2) and g.dtype == ms.float32
close(g.asnumpy().mean(0), [0.5, 3.0], rtol=0.08)
close(g.asnumpy().var(0), [0.5, 3.0], rtol=0.15)
p = ops.random_poisson(Tensor(np.array([3000, 1])), Tensor(np.array([2.0, 10.0])), dtype=ms.int32)
assert p.shape == (3000, 1, 2) and p.dtype == ms.int32
close(p.asnumpy().reshape(-1, 2).mean(0), [2.0, 10.0], rtol=0.06)
m = ops.multinomial_with_replacement(Tensor(np.array([[0.0, 1.0, 3.0], [5.0, 0.0, 0.0]])), Tensor(0), Tensor(0), 4000, True)
assert m.shape == (2, 4000) and m.dtype == ms.int64
close(np.bincount(m.asnumpy()[0], minlength=3) / 4000, [0.0, 0.25, 0.75], atol=0.03)
assert (m.asnumpy()[1] == 0).all()
nr = ops.multinomial_with_replacement(Tensor(np.array([1.0, 1.0, 1.0])), Tensor(0), Tensor(0), 3)
assert sorted(nr.asnumpy().tolist()) == [0, 1, 2]
raises(ValueError, ops.multinomial_with_replacement, Tensor(np.array([1.0, 1.0])), Tensor(0), Tensor(0), 3,
       match="For 'MultinomialWithReplacement'")
cand, true_exp, samp_exp = ops.log_uniform_candidate_sampler(Tensor(np.array([[1, 7], [0, 4]])), 2, 5, True, 10)
c = cand.asnumpy()
assert c.shape == (5,) and len(set(c.tolist())) == 5 and c.min() >= 0 and c.max() < 10
assert true_exp.shape == (2, 2) and samp_exp.shape == (5,) and true_exp.dtype == ms.float32
# class 0 is the likeliest, so its expected count is the largest
assert true_exp.asnumpy()[1, 0] > true_exp.asnumpy()[0, 0] > true_exp.asnumpy()[0, 1]
_, te, _ = ops.log_uniform_candidate_sampler(Tensor(np.array([[3]])), 1, 4, False, 10)
close(te, [[4 * np.log(5 / 4) / np.log(11)]], rtol=1e-6)

# successive calls draw on from the op's seeded stream (the same numbers on every run of the script)
a1 = ops.random_gamma(Tensor(np.array([3])), Tensor(np.array([2.0]))).asnumpy()
a2 = ops.random_gamma(Tensor(np.array([3])), Tensor(np.array([2.0]))).asnumpy()
assert not np.array_equal(a1, a2)
raises(ValueError, ops.random_gamma, Tensor(np.array([2])), Tensor(np.array([-1.0])), match="For 'RandomGamma'")

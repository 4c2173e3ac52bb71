"""The fixture the optimizer test scripts share: a weight and a bias Parameter, four steps of
gradients drawn from a seed, and a comparison of updated values."""
import numpy as np

from mindspore import Parameter, Tensor


class OptimCase:
    def __init__(self, seed, bias_name):
        rng = np.random.RandomState(seed)
        self.W0 = rng.randn(3, 2).astype(np.float32)
        self.B0 = rng.randn(2).astype(np.float32)
        self.GRADS = [(rng.randn(3, 2).astype(np.float32), rng.randn(2).astype(np.float32)) for _ in range(4)]
        self.bias_name = bias_name

    def params(self):
        return [Parameter(Tensor(self.W0.copy()), name="w"), Parameter(Tensor(self.B0.copy()), name=self.bias_name)]

    def run(self, make, steps=4):
        """Builds the optimizer over fresh Parameters, applies `steps` gradients, returns the values and it."""
        ps = self.params()
        opt = make(ps)
        for gw, gb in self.GRADS[:steps]:
            opt((Tensor(gw), Tensor(gb)))
        return [p.asnumpy() for p in ps], opt


def check(actual, expected, what, rtol=2e-5, atol=2e-6):
    for a, e in zip(actual, expected):
        assert np.allclose(a, e, rtol=rtol, atol=atol), "%s: %s != %s" % (what, a, e)

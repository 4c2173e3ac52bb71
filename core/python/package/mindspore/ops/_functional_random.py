"""Random ops of mindspore.ops with MindSpore's seed rules, drawn with NumPy's Generator.

Seeds: with mindspore.set_seed(s) and no op seed, each op draws from a stream seeded by (s, op
name), so a script gives the same numbers on every run and successive calls differ; an op seed
(seed=k) gives its own stream seeded by (s or 0, k, op name); with neither, fresh OS entropy. The
streams are per run (_gradstep_reset). The values are NumPy's, not MindSpore's Philox bits."""
import numpy as np

import mindspore
import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"
_streams = {}


def _gradstep_reset():
    _streams.clear()


def _rng(op, seed=None, seed2=None):
    mindspore._random_draw(op)
    g = mindspore.get_seed()
    if seed is not None and not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError("For '%s', the 'seed' must be an int, but got %s." % (op, type(seed).__name__))
    if seed is not None and seed < 0:
        raise ValueError("For '%s', the 'seed' must be greater than or equal to 0, but got %d." % (op, seed))
    if g is None and not seed and not seed2:
        return np.random.default_rng()
    key = (g, seed or 0, seed2 or 0, op)
    stream = _streams.get(key)
    if stream is None:
        entropy = [0 if g is None else int(g) + 1, int(seed or 0), int(seed2 or 0)] + [ord(c) for c in op]
        stream = _streams[key] = np.random.default_rng(entropy)
    return stream


def _shape(op, shape):
    return U.shape_tuple(op, shape, "shape")


def _out(values, dtype):
    return U.const(values, dtype)


@export(_F)
def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32):
    shape = _shape("uniform", shape)
    lo = U.numpy_of(minval)
    hi = U.numpy_of(maxval)
    if dtype in U._INTS:
        return _out(_rng("UniformInt", seed).integers(int(lo), int(hi), size=shape), dtype)
    if dtype not in U._FLOATS:
        raise TypeError("For 'uniform', the 'dtype' must be float32, float64, int32 or int64, but got %s." % dtype)
    # the output has the broadcast shape of `shape`, minval and maxval (a (3, 1, 2) shape with (2, 2)
    # bounds gives (3, 2, 2)), as MindSpore computes uniform_real(shape) * (maxval - minval) + minval
    size = tuple(np.broadcast_shapes(shape, np.shape(lo), np.shape(hi)))
    return _out(_rng("UniformReal", seed).uniform(lo, hi, size=size), dtype)


@export(_F)
def standard_normal(shape, seed=None, seed2=None):
    shape = _shape("StandardNormal", shape)
    return _out(_rng("StandardNormal", seed, seed2).standard_normal(shape), mstype.float32)


@export(_F)
def normal(shape, mean, stddev, seed=None):
    shape = tuple(np.broadcast_shapes(_shape("normal", shape), np.shape(U.numpy_of(mean)),
                                      np.shape(U.numpy_of(stddev))))
    z = _out(_rng("Normal", seed).standard_normal(shape), mstype.float32)
    return z * stddev + mean


@export(_F)
def bernoulli(input, p=0.5, seed=None):
    U.check_tensor("Bernoulli", "input", input)
    prob = np.broadcast_to(U.numpy_of(p), tuple(input.shape))
    draws = _rng("Bernoulli", seed).random(tuple(input.shape)) < prob
    return _out(draws, input.dtype)


@export(_F)
def randint(low, high, size, seed=None, *, dtype=None):
    U.check_int("randint", "low", low)
    U.check_int("randint", "high", high)
    if low >= high:
        raise ValueError("For 'randint', the 'low' must be less than 'high', but got %d and %d." % (low, high))
    return _out(_rng("randint", seed).integers(low, high, size=_shape("randint", size)), dtype or mstype.int64)


@export(_F)
def randint_like(input, low, high, seed=None, *, dtype=None):
    return randint(low, high, tuple(input.shape), seed, dtype=dtype or input.dtype)


@export(_F)
def rand(*size, dtype=None, seed=None):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return _out(_rng("rand", seed).random(tuple(size)), dtype or mstype.float32)


@export(_F)
def rand_like(input, seed=None, *, dtype=None):
    return _out(_rng("rand", seed).random(tuple(input.shape)), dtype or input.dtype)


@export(_F)
def randn(*size, dtype=None, seed=None):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return _out(_rng("randn", seed).standard_normal(tuple(size)), dtype or mstype.float32)


@export(_F)
def randn_like(input, seed=None, *, dtype=None):
    return _out(_rng("randn", seed).standard_normal(tuple(input.shape)), dtype or input.dtype)


@export(_F)
def randperm(n, seed=0, offset=0, dtype=mstype.int64):
    n = int(U.numpy_of(n))
    return _out(_rng("randperm", seed or None).permutation(n), dtype)


@export(_F)
def shuffle(x, seed=None):
    order = _rng("shuffle", seed).permutation(x.shape[0])
    return ops.gather(x, U.const(order, mstype.int64), 0)


@export(_F)
def multinomial(input, num_samples, replacement=True, seed=None):
    U.check_tensor("multinomial", "input", input)
    probs = U.numpy_of(input).astype(np.float64)
    if np.any(probs < 0):
        raise ValueError("For 'multinomial', the 'input' must not be negative.")
    flat = probs.reshape(-1, probs.shape[-1])
    if not replacement and num_samples > flat.shape[-1]:
        raise ValueError("For 'multinomial', the 'num_samples' must not exceed the number of categories "
                         "(%d) without replacement, but got %d." % (flat.shape[-1], num_samples))
    rng = _rng("Multinomial", seed)
    rows = []
    for p in flat:
        p = p / p.sum()
        rows.append(rng.choice(len(p), size=num_samples, replace=replacement, p=p))
    out = np.stack(rows).reshape(probs.shape[:-1] + (num_samples,))
    return _out(out, mstype.int64)


@export(_F)
def random_categorical(logits, num_sample, seed=0, dtype=mstype.int64):
    return multinomial(ops.softmax(logits, -1), num_sample, True, seed or None).astype(dtype)


@export(_F)
def gamma(shape, alpha, beta, seed=None):
    shape = tuple(np.broadcast_shapes(_shape("gamma", shape), np.shape(U.numpy_of(alpha)), np.shape(U.numpy_of(beta))))
    return _out(_rng("Gamma", seed).gamma(U.numpy_of(alpha), 1.0 / U.numpy_of(beta), size=shape), mstype.float32)


@export(_F)
def poisson(shape, mean, seed=None):
    lam = U.numpy_of(mean)
    size = tuple(np.broadcast_shapes(_shape("poisson", shape), np.shape(lam)))
    return _out(_rng("Poisson", seed).poisson(lam, size=size), mstype.float32)

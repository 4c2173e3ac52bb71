"""Random ops of mindspore.ops (MindSpore 2.2 names): random_gamma, random_poisson,
multinomial_with_replacement and log_uniform_candidate_sampler, drawn with the seed rules of
_functional_random (a set_seed script repeats its numbers; NumPy's values, not MindSpore's
Philox bits)."""
import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_random import _rng
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _out(values, dtype):
    values = np.asarray(values)
    t = U.const(values, dtype)
    return ops.reshape(t, values.shape) if values.ndim == 0 else t


def _seed(op, seed):
    if isinstance(seed, Tensor):
        seed = int(U.shape_deciding_values(op, seed).reshape(-1)[0])
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError("For '%s', the 'seed' must be an int, but got %s." % (op, type(seed).__name__))
    return seed


@export(_F)
def random_gamma(shape, alpha, seed=0):
    """Gamma(alpha, 1) samples of shape `shape + alpha.shape`, in alpha's dtype."""
    op = "RandomGamma"
    U.check_tensor(op, "alpha", alpha)
    if alpha.dtype not in U._ALL_FLOATS:
        raise TypeError("For '%s', the dtype of 'alpha' must be a float type, but got %s." % (op, alpha.dtype))
    a = U.shape_deciding_values("random_gamma", alpha).astype(np.float64)
    if np.any(a <= 0):
        raise ValueError("For '%s', the 'alpha' must be positive." % op)
    prefix = U.shape_tuple(op, shape, "shape")
    draws = _rng(op, _seed(op, seed)).gamma(np.broadcast_to(a, prefix + a.shape))
    return _out(draws, alpha.dtype)


@export(_F)
def random_poisson(shape, rate, seed=0, dtype=mstype.float32):
    """Poisson(rate) samples of shape `shape + rate.shape`."""
    op = "RandomPoisson"
    U.check_tensor(op, "rate", rate)
    if dtype not in (mstype.float16, mstype.float32, mstype.float64, mstype.int32, mstype.int64):
        raise TypeError("For '%s', the 'dtype' must be float16, float32, float64, int32 or int64, but got %s." % (op, dtype))
    lam = U.shape_deciding_values("random_poisson", rate).astype(np.float64)
    if np.any(lam < 0):
        raise ValueError("For '%s', the 'rate' must not be negative." % op)
    prefix = U.shape_tuple(op, shape, "shape")
    draws = _rng(op, _seed(op, seed)).poisson(np.broadcast_to(lam, prefix + lam.shape))
    return _out(draws, dtype)


@export(_F)
def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """numsamples category indices per row of the (unnormalized) probabilities x, int64."""
    op = "MultinomialWithReplacement"
    U.check_tensor(op, "x", x)
    numsamples = U.check_int(op, "numsamples", numsamples, 1)
    U.check_bool(op, "replacement", replacement)
    probs = U.shape_deciding_values("multinomial_with_replacement", x).astype(np.float64)
    if probs.ndim not in (1, 2):
        raise ValueError("For '%s', the dimension of 'x' must be 1 or 2, but got %d." % (op, probs.ndim))
    if np.any(probs < 0):
        raise ValueError("For '%s', the 'x' must not be negative." % op)
    rows = probs.reshape(-1, probs.shape[-1])
    if not replacement and numsamples > rows.shape[1]:
        raise ValueError("For '%s', the 'numsamples' must not exceed the number of categories (%d) without "
                         "replacement, but got %d." % (op, rows.shape[1], numsamples))
    s, o = _seed(op, seed), _seed(op, offset)
    rng = _rng(op, s or None, o or None)
    out = np.stack([rng.choice(len(p), numsamples, replace=replacement, p=p / p.sum()) for p in rows])
    return _out(out.reshape(probs.shape[:-1] + (numsamples,)), mstype.int64)


@export(_F)
def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
    """Samples num_sampled classes from the log-uniform (Zipfian) distribution on [0, range_max):
    P(c) = log((c + 2) / (c + 1)) / log(range_max + 1). Returns (sampled_candidates,
    true_expected_count, sampled_expected_count)."""
    op = "LogUniformCandidateSampler"
    U.check_tensor(op, "true_classes", true_classes)
    num_true = U.check_int(op, "num_true", num_true, 1)
    num_sampled = U.check_int(op, "num_sampled", num_sampled, 1)
    range_max = U.check_int(op, "range_max", range_max, 1)
    U.check_bool(op, "unique", unique)
    if unique and num_sampled > range_max:
        raise ValueError("For '%s', the 'num_sampled' must not exceed 'range_max' (%d) when 'unique' is True, "
                         "but got %d." % (op, range_max, num_sampled))
    tc = U.shape_deciding_values("log_uniform_candidate_sampler", true_classes).astype(np.int64)
    if tc.ndim != 2 or tc.shape[1] != num_true:
        raise ValueError("For '%s', the 'true_classes' must be (batch, num_true=%d), but got shape %s."
                         % (op, num_true, tuple(tc.shape)))
    rng = _rng(op, _seed(op, seed) or None)
    log_range = np.log(range_max + 1.0)

    def prob(c):
        return (np.log(c + 2.0) - np.log(c + 1.0)) / log_range

    def draw():
        return min(int(np.exp(rng.random() * log_range)) - 1, range_max - 1)

    sampled, tries = [], 0
    if unique:
        seen = set()
        while len(sampled) < num_sampled:
            c = draw()
            tries += 1
            if c not in seen:
                seen.add(c)
                sampled.append(c)
    else:
        sampled = [draw() for _ in range(num_sampled)]
        tries = num_sampled
    sampled = np.asarray(sampled, np.int64)

    def expected(c):
        p = prob(c.astype(np.float64))
        if unique:
            return -np.expm1(tries * np.log1p(-p))
        return num_sampled * p

    return (_out(sampled, mstype.int64), _out(expected(tc), mstype.float32), _out(expected(sampled), mstype.float32))


def _positive_shape(op, shape):
    shape = U.shape_tuple(op, shape, "shape")
    if any(v <= 0 for v in shape):
        raise ValueError("For '%s', the elements of 'shape' must be positive, but got %s." % (op, shape))
    return shape


@export(_F)
def standard_laplace(shape, seed=None):
    """float32 samples of the Laplace distribution with mean 0 and lambda 1, density exp(-|x|) / 2."""
    op = "StandardLaplace"
    return _out(_rng(op, _seed(op, seed)).laplace(0.0, 1.0, _positive_shape(op, shape)), mstype.float32)


@export(_F)
def laplace(shape, mean, lambda_param, seed=None):
    """standard_laplace(shape) * lambda_param + mean: the broadcast shape of `shape`, mean and
    lambda_param, float32 (differentiable in mean and lambda_param)."""
    op = "laplace"
    for name, value in (("mean", mean), ("lambda_param", lambda_param)):
        U.check_tensor(op, name, value)
        if value.dtype != mstype.float32:
            raise TypeError("For '%s', the dtype of '%s' must be float32, but got %s." % (op, name, value.dtype))
    if not isinstance(shape, tuple):
        raise TypeError("For '%s', the 'shape' must be a tuple, but got %s." % (op, type(shape).__name__))
    size = tuple(np.broadcast_shapes(_positive_shape(op, shape), tuple(mean.shape), tuple(lambda_param.shape)))
    z = _out(_rng("StandardLaplace", _seed(op, seed)).laplace(0.0, 1.0, size), mstype.float32)
    return z * lambda_param + mean


@export(_F)
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    """num_sampled classes drawn uniformly from [0, range_max) (distinct ones by rejection when
    unique, then also skipping the true classes with remove_accidental_hits). Returns
    (sampled_candidates in true_classes' dtype, true_expected_count, sampled_expected_count), the
    counts float32: num_sampled / range_max, or -expm1(tries * log1p(-1 / range_max)) when unique."""
    op = "UniformCandidateSampler"
    U.check_tensor(op, "true_classes", true_classes)
    num_true = U.check_int(op, "num_true", num_true, 1)
    num_sampled = U.check_int(op, "num_sampled", num_sampled, 1)
    range_max = U.check_int(op, "range_max", range_max, 1)
    seed = U.check_int(op, "seed", seed, 0)
    U.check_bool(op, "unique", unique)
    U.check_bool(op, "remove_accidental_hits", remove_accidental_hits)
    if true_classes.dtype not in (mstype.int32, mstype.int64):
        raise TypeError("For '%s', the dtype of 'true_classes' must be int32 or int64, but got %s."
                        % (op, true_classes.dtype))
    tc = U.shape_deciding_values("uniform_candidate_sampler", true_classes)
    if tc.ndim != 2 or tc.shape[1] != num_true:
        raise ValueError("For '%s', the 'true_classes' must be (batch, num_true=%d), but got shape %s."
                         % (op, num_true, tuple(tc.shape)))
    banned = set(tc.reshape(-1).tolist()) if (unique and remove_accidental_hits) else set()
    if unique and num_sampled > range_max - len(banned & set(range(range_max))):
        raise ValueError("For '%s', only %d classes can be drawn without repetition, but 'num_sampled' is %d."
                         % (op, range_max - len(banned & set(range(range_max))), num_sampled))
    rng = _rng(op, seed or None)
    if unique:
        sampled, seen, tries = [], set(), 0
        while len(sampled) < num_sampled:
            c = int(rng.integers(0, range_max))
            tries += 1
            if c not in seen and c not in banned:
                seen.add(c)
                sampled.append(c)
        p = 1.0 / range_max
        expected = -np.expm1(tries * np.log1p(-p)) if p < 1 else 1.0
    else:
        sampled = rng.integers(0, range_max, num_sampled).tolist()
        expected = num_sampled / float(range_max)
    return (_out(np.asarray(sampled), true_classes.dtype), _out(np.full(tc.shape, expected), mstype.float32),
            _out(np.full((num_sampled,), expected), mstype.float32))


@export(_F)
def choice_with_mask(input_x, count=256, seed=None):
    """(index, mask): up to `count` coordinates of True elements of the bool input_x (rank 1 to 5),
    in random order, as an int32 (count, rank) tensor; rows past the number of True elements are
    zeros with mask False."""
    op = "RandomChoiceWithMask"
    U.check_tensor(op, "input_x", input_x)
    count = U.check_int(op, "count", count, 1)
    if input_x.dtype != mstype.bool_:
        raise TypeError("For '%s', the dtype of 'input_x' must be bool, but got %s." % (op, input_x.dtype))
    if not 1 <= input_x.ndim <= 5:
        raise ValueError("For '%s', the rank of 'input_x' must be in [1, 5], but got %d." % (op, input_x.ndim))
    where = np.argwhere(U.shape_deciding_values("choice_with_mask", input_x))
    picked = where[_rng(op, _seed(op, seed)).permutation(len(where))[:count]]
    index = np.zeros((count, input_x.ndim), np.int32)
    index[:len(picked)] = picked
    mask = np.arange(count) < len(picked)
    return _out(index, mstype.int32), _out(mask, mstype.bool_)

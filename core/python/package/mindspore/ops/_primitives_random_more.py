"""Random primitive classes of mindspore.ops.operations.random_ops over the functional forms:
StandardLaplace, Gamma, RandomGamma, Poisson, RandomPoisson, TruncatedNormal,
NonDeterministicInts, RandomChoiceWithMask, UniformCandidateSampler and
LogUniformCandidateSampler. Attributes are checked at construction with MindSpore's messages; the
values are drawn with the seed rules of _functional_random (NumPy's numbers, not MindSpore's
Philox bits)."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops import _functional_random_more as RM
from mindspore.ops._functional_random import _rng
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register


def _seeds(op, seed, seed2):
    U.check_int(op, "seed", seed, 0)
    U.check_int(op, "seed2", seed2, 0)


def _dtype(op, dtype, allowed):
    if dtype not in allowed:
        raise TypeError("For '%s', the 'dtype' must be one of %s, but got %s."
                        % (op, ", ".join(str(t) for t in allowed), dtype))


def _shape_values(op, shape):
    """A shape given as a 1-D int32/int64 Tensor (or a tuple), with positive entries."""
    if hasattr(shape, "dtype") and shape.dtype not in (mstype.int32, mstype.int64):
        raise TypeError("For '%s', the dtype of 'shape' must be int32 or int64, but got %s." % (op, shape.dtype))
    if hasattr(shape, "ndim") and shape.ndim != 1:
        raise ValueError("For '%s', the 'shape' must be a 1-D tensor, but got %d-D." % (op, shape.ndim))
    out = U.shape_tuple(op, shape)
    if any(v <= 0 for v in out):
        raise ValueError("For '%s', the elements of 'shape' must be positive, but got %s." % (op, out))
    return out


@primitive
class StandardLaplace(Primitive):
    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        _seeds("StandardLaplace", seed, seed2)

    def __call__(self, shape):
        shape = RM._positive_shape("StandardLaplace", shape)
        return RM._out(_rng("StandardLaplace", self.seed, self.seed2).laplace(0.0, 1.0, shape), mstype.float32)


@primitive
class Gamma(Primitive):
    """Gamma(alpha, rate beta) samples of the broadcast shape of `shape`, alpha and beta, float32."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        _seeds("Gamma", seed, seed2)

    def __call__(self, shape, alpha, beta):
        for name, value in (("alpha", alpha), ("beta", beta)):
            U.check_tensor("Gamma", name, value)
            if value.dtype != mstype.float32:
                raise TypeError("For 'Gamma', the dtype of '%s' must be float32, but got %s." % (name, value.dtype))
        if not isinstance(shape, tuple):
            raise TypeError("For 'Gamma', the 'shape' must be a tuple, but got %s." % type(shape).__name__)
        shape = RM._positive_shape("Gamma", shape)
        a, b = U.numpy_of(alpha).astype(np.float64), U.numpy_of(beta).astype(np.float64)
        size = tuple(np.broadcast_shapes(a.shape, b.shape, shape))
        return RM._out(_rng("Gamma", self.seed, self.seed2).gamma(a, 1.0 / b, size=size), mstype.float32)


@primitive
class RandomGamma(Primitive):
    """Gamma(alpha, 1) samples of shape `shape + alpha.shape`, in alpha's dtype."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        _seeds("RandomGamma", seed, seed2)

    def __call__(self, shape, alpha):
        U.check_tensor("RandomGamma", "shape", shape)
        return ops.random_gamma(shape, alpha, self.seed or self.seed2 or None)


@primitive
class Poisson(Primitive):
    """Poisson(mean) samples of the broadcast shape of `shape` and mean, int32."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        _seeds("Poisson", seed, seed2)

    def __call__(self, shape, mean):
        U.check_tensor("Poisson", "mean", mean)
        if mean.dtype != mstype.float32:
            raise TypeError("For 'Poisson', the dtype of 'mean' must be float32, but got %s." % mean.dtype)
        if not isinstance(shape, tuple):
            raise TypeError("For 'Poisson', the 'shape' must be a tuple, but got %s." % type(shape).__name__)
        lam = U.numpy_of(mean).astype(np.float64)
        size = tuple(np.broadcast_shapes(lam.shape, RM._positive_shape("Poisson", shape)))
        return RM._out(_rng("Poisson", self.seed, self.seed2).poisson(lam, size=size), mstype.int32)


@primitive
class RandomPoisson(Primitive):
    """Poisson(rate) samples of shape `shape + rate.shape`, of dtype `dtype`."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0, dtype=mstype.int64):
        _seeds("RandomPoisson", seed, seed2)
        _dtype("RandomPoisson", dtype, (mstype.int64, mstype.int32, mstype.float16, mstype.float32, mstype.float64))

    def __call__(self, shape, rate):
        U.check_tensor("RandomPoisson", "shape", shape)
        return ops.random_poisson(shape, rate, self.seed or self.seed2 or None, self.dtype)


@primitive
class TruncatedNormal(Primitive):
    """Standard normal samples redrawn until they fall in [-2, 2], of the shape in a 1-D Tensor."""

    @prim_attr_register
    def __init__(self, dtype=mstype.float32, seed=0, seed2=0):
        U.check_int("TruncatedNormal", "seed", seed)
        U.check_int("TruncatedNormal", "seed2", seed2)
        _dtype("TruncatedNormal", dtype, (mstype.float16, mstype.float32, mstype.float64))

    def __call__(self, shape):
        U.check_tensor("TruncatedNormal", "shape", shape)
        shape = _shape_values("TruncatedNormal", shape)
        rng = _rng("TruncatedNormal", self.seed, self.seed2)
        z = rng.standard_normal(shape)
        bad = np.abs(z) > 2
        while bad.any():
            z[bad] = rng.standard_normal(int(bad.sum()))
            bad = np.abs(z) > 2
        return RM._out(z, self.dtype)


@primitive
class NonDeterministicInts(Primitive):
    """Integers over the whole range of `dtype`, of the shape in a 1-D Tensor, from OS entropy."""

    @prim_attr_register
    def __init__(self, dtype=mstype.int64):
        _dtype("NonDeterministicInts", dtype, (mstype.int32, mstype.int64))

    def __call__(self, shape):
        U.check_tensor("NonDeterministicInts", "shape", shape)
        shape = _shape_values("NonDeterministicInts", shape)
        if int(np.prod(shape)) > 1000000:
            raise ValueError("For 'NonDeterministicInts', the number of elements of output must be less than "
                             "1000000, but got %d." % int(np.prod(shape)))
        info = np.iinfo(np.int32 if self.dtype == mstype.int32 else np.int64)
        draws = np.random.default_rng().integers(info.min, info.max, size=shape, endpoint=True)
        return RM._out(draws, self.dtype)


@primitive
class RandomChoiceWithMask(Primitive):
    @prim_attr_register
    def __init__(self, count=256, seed=0, seed2=0):
        U.check_int("RandomChoiceWithMask", "count", count, 1)
        U.check_int("RandomChoiceWithMask", "seed", seed)
        U.check_int("RandomChoiceWithMask", "seed2", seed2)

    def __call__(self, input_x):
        return ops.choice_with_mask(input_x, self.count, self.seed or self.seed2 or None)


@primitive
class UniformCandidateSampler(Primitive):
    @prim_attr_register
    def __init__(self, num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False):
        op = "UniformCandidateSampler"
        U.check_int(op, "num_true", num_true)
        U.check_int(op, "num_sampled", num_sampled)
        U.check_bool(op, "unique", unique)
        U.check_int(op, "range_max", range_max)
        U.check_int(op, "seed", seed)
        U.check_bool(op, "remove_accidental_hits", remove_accidental_hits)
        if num_sampled <= 0 or range_max <= 0:
            raise ValueError("For '%s', the 'num_sampled' and 'range_max' must be positive, but got %d and %d."
                             % (op, num_sampled, range_max))
        if unique and num_sampled > range_max:
            raise ValueError("For '%s', the 'num_sampled' must be less than or equal to 'range_max' when 'unique' "
                             "is True, but got %d and %d." % (op, num_sampled, range_max))
        if seed < 0:
            raise ValueError("For '%s', the 'seed' must be greater than or equal to 0, but got %d." % (op, seed))

    def __call__(self, true_classes):
        return ops.uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled, self.unique,
                                             self.range_max, self.seed, self.remove_accidental_hits)


@primitive
class LogUniformCandidateSampler(Primitive):
    @prim_attr_register
    def __init__(self, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
        op = "LogUniformCandidateSampler"
        U.check_int(op, "num_true", num_true, 1)
        U.check_int(op, "num_sampled", num_sampled, 1)
        U.check_bool(op, "unique", unique)
        U.check_int(op, "range_max", range_max, 1)
        U.check_int(op, "seed", seed, 0)
        if unique and range_max < num_sampled:
            raise ValueError("For '%s', the 'range_max' must be greater than or equal to 'num_sampled' when "
                             "'unique' is True, but got %d and %d." % (op, range_max, num_sampled))

    def __call__(self, true_classes):
        return ops.log_uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled, self.unique,
                                                 self.range_max, self.seed)

"""The Bessel functions of mindspore.ops beyond i0/j0 (_functional_special.py): j1, y0, y1, i0e, i1,
i1e, k0, k0e, k1, k1e.

Each is Abramowitz & Stegun's polynomial approximation (9.4.4-9.4.6 for J1/Y0/Y1, 9.8.3-9.8.8 for
I1/K0/K1; absolute or relative error below 1e-7), composed of differentiable ops so autodiff gives
the gradients. The two branches are evaluated on inputs clamped into their own range so the branch
select never sees an inf or nan from the branch it drops. The exponentially scaled forms are
computed scaled on the large branch, so i0e/i1e stay finite where i0/i1 overflow. Y and K are
defined for x > 0: at 0 they are -inf / +inf, below 0 nan, as in MindSpore's CPU kernels."""
import math as _math

import mindspore.ops as ops
from mindspore.ops._functional_special import _float_input, _poly, bessel_i0, bessel_j0
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _as_input(x, out):
    """float16 / bfloat16 inputs are computed in float32 and given back in their own dtype."""
    return out.astype(x.dtype) if out.dtype != x.dtype else out


def _split(ax, edge):
    """(mask ax <= edge, ax clamped into the small branch, ax clamped into the large branch)."""
    small = ax <= edge
    return small, ops.select(small, ax, ops.full_like(ax, edge)), ops.select(small, ops.full_like(ax, edge), ax)


def _j0_large_parts(ab):
    tb = 3.0 / ab
    f0 = _poly(tb, (0.79788456, -0.00000077, -0.00552740, -0.00009512, 0.00137237, -0.00072805, 0.00014476))
    th = ab + _poly(tb, (-0.78539816, -0.04166397, -0.00003954, 0.00262573, -0.00054125, -0.00029333,
                         0.00013558))
    return f0 / ops.sqrt(ab), th


def _j1_large_parts(ab):
    tb = 3.0 / ab
    f1 = _poly(tb, (0.79788456, 0.00000156, 0.01659667, 0.00017105, -0.00249511, 0.00113653, -0.00020033))
    th = ab + _poly(tb, (-2.35619449, 0.12499612, 0.00005650, -0.00637879, 0.00074348, 0.00079824,
                         -0.00029166))
    return f1 / ops.sqrt(ab), th


def _j1_small(xs):
    t = xs / 3.0
    return xs * _poly(t * t, (0.5, -0.56249985, 0.21093573, -0.03954289, 0.00443319, -0.00031761, 0.00001109))


@export(_F)
def bessel_j1(x):
    """Bessel function of the first kind, order 1 (odd in x)."""
    v = _float_input("BesselJ1", x, "x")
    ax = ops.abs(v)
    small, xs, xl = _split(ax, 3.0)
    amp, th = _j1_large_parts(xl)
    out = ops.select(small, _j1_small(xs), amp * ops.cos(th))
    return _as_input(x, ops.select(v < 0, -out, out))


def _positive_domain(v, out, at_zero):
    """Y and K: at_zero at 0, nan below."""
    out = ops.select(v == 0, ops.full_like(v, at_zero), out)
    return ops.select(v < 0, ops.full_like(v, float("nan")), out)


@export(_F)
def bessel_y0(x):
    """Bessel function of the second kind, order 0 (x > 0)."""
    v = _float_input("BesselY0", x, "x")
    pos = ops.select(v > 0, v, ops.ones_like(v))
    small, xs, xl = _split(pos, 3.0)
    t = xs / 3.0
    lo = (2.0 / _math.pi) * ops.log(xs / 2.0) * bessel_j0(xs) + _poly(
        t * t, (0.36746691, 0.60559366, -0.74350384, 0.25300117, -0.04261214, 0.00427916, -0.00024846))
    amp, th = _j0_large_parts(xl)
    return _as_input(x, _positive_domain(v, ops.select(small, lo, amp * ops.sin(th)), float("-inf")))


@export(_F)
def bessel_y1(x):
    """Bessel function of the second kind, order 1 (x > 0)."""
    v = _float_input("BesselY1", x, "x")
    pos = ops.select(v > 0, v, ops.ones_like(v))
    small, xs, xl = _split(pos, 3.0)
    t = xs / 3.0
    lo = (2.0 / _math.pi) * ops.log(xs / 2.0) * _j1_small(xs) + _poly(
        t * t, (-0.6366198, 0.2212091, 2.1682709, -1.3164827, 0.3123951, -0.0400976, 0.0027873)) / xs
    amp, th = _j1_large_parts(xl)
    return _as_input(x, _positive_domain(v, ops.select(small, lo, amp * ops.sin(th)), float("-inf")))


def _i0_small(xs):
    t = xs / 3.75
    return _poly(t * t, (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813))


def _i0_large_scaled(xl):
    """e^-x I0(x) for x >= 3.75 (A & S 9.8.2): I0 without its exponential."""
    return _poly(3.75 / xl, (0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706,
                             0.02635537, -0.01647633, 0.00392377)) / ops.sqrt(xl)


def _i1_small(xs):
    t = xs / 3.75
    return xs * _poly(t * t, (0.5, 0.87890594, 0.51498869, 0.15084934, 0.02658733, 0.00301532, 0.00032411))


def _i1_large_scaled(xl):
    return _poly(3.75 / xl, (0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555, 0.02282967,
                             -0.02895312, 0.01787654, -0.00420059)) / ops.sqrt(xl)


@export(_F)
def bessel_i0e(x):
    """exp(-|x|) I0(x)."""
    v = _float_input("BesselI0e", x, "x")
    small, xs, xl = _split(ops.abs(v), 3.75)
    return _as_input(x, ops.select(small, _i0_small(xs) * ops.exp(-xs), _i0_large_scaled(xl)))


@export(_F)
def bessel_i1(x):
    """Modified Bessel function of the first kind, order 1 (odd in x)."""
    v = _float_input("BesselI1", x, "x")
    small, xs, xl = _split(ops.abs(v), 3.75)
    out = ops.select(small, _i1_small(xs), _i1_large_scaled(xl) * ops.exp(xl))
    return _as_input(x, ops.select(v < 0, -out, out))


@export(_F)
def bessel_i1e(x):
    """exp(-|x|) I1(x) (odd in x)."""
    v = _float_input("BesselI1e", x, "x")
    small, xs, xl = _split(ops.abs(v), 3.75)
    out = ops.select(small, _i1_small(xs) * ops.exp(-xs), _i1_large_scaled(xl))
    return _as_input(x, ops.select(v < 0, -out, out))


def _k0_parts(v):
    pos = ops.select(v > 0, v, ops.ones_like(v))
    small, xs, xl = _split(pos, 2.0)
    t = xs / 2.0
    lo = -ops.log(t) * bessel_i0(xs) + _poly(
        t * t, (-0.57721566, 0.42278420, 0.23069756, 0.03488590, 0.00262698, 0.00010750, 0.00000740))
    hi_scaled = _poly(2.0 / xl, (1.25331414, -0.07832358, 0.02189568, -0.01062446, 0.00587872, -0.00251540,
                                 0.00053208)) / ops.sqrt(xl)
    return small, xs, xl, lo, hi_scaled


def _k1_parts(v):
    pos = ops.select(v > 0, v, ops.ones_like(v))
    small, xs, xl = _split(pos, 2.0)
    t = xs / 2.0
    lo = ops.log(t) * _i1_small(xs) + _poly(
        t * t, (1.0, 0.15443144, -0.67278579, -0.18156897, -0.01919402, -0.00110404, -0.00004686)) / xs
    hi_scaled = _poly(2.0 / xl, (1.25331414, 0.23498619, -0.03655620, 0.01504268, -0.00780353, 0.00325614,
                                 -0.00068245)) / ops.sqrt(xl)
    return small, xs, xl, lo, hi_scaled


@export(_F)
def bessel_k0(x):
    """Modified Bessel function of the second kind, order 0 (x > 0)."""
    v = _float_input("BesselK0", x, "x")
    small, _, xl, lo, hi_scaled = _k0_parts(v)
    return _as_input(x, _positive_domain(v, ops.select(small, lo, hi_scaled * ops.exp(-xl)), float("inf")))


@export(_F)
def bessel_k0e(x):
    """exp(x) K0(x) (x > 0)."""
    v = _float_input("BesselK0e", x, "x")
    small, xs, _, lo, hi_scaled = _k0_parts(v)
    return _as_input(x, _positive_domain(v, ops.select(small, lo * ops.exp(xs), hi_scaled), float("inf")))


@export(_F)
def bessel_k1(x):
    """Modified Bessel function of the second kind, order 1 (x > 0)."""
    v = _float_input("BesselK1", x, "x")
    small, _, xl, lo, hi_scaled = _k1_parts(v)
    return _as_input(x, _positive_domain(v, ops.select(small, lo, hi_scaled * ops.exp(-xl)), float("inf")))


@export(_F)
def bessel_k1e(x):
    """exp(x) K1(x) (x > 0)."""
    v = _float_input("BesselK1e", x, "x")
    small, xs, _, lo, hi_scaled = _k1_parts(v)
    return _as_input(x, _positive_domain(v, ops.select(small, lo * ops.exp(xs), hi_scaled), float("inf")))

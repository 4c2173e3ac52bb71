"""Elementwise and special functions of mindspore.ops (MindSpore 2.2 names): bitwise ops, copysign,
hypot, fmax/fmin, gcd/lcm, the gamma family (lgamma, digamma, polygamma, mvlgamma, igamma), zeta,
erfinv, Bessel i0/j0, and small helpers (sgn, angle, polar, threshold, renorm, numel, ...).

Float functions are composed of differentiable ops (series, recurrences, Lanczos and asymptotic
expansions), so gradients come from autodiff; integer-only ops (bitwise, gcd, population_count)
run in NumPy, they have no gradient in MindSpore either."""
import math as _math

import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export, export_as
from mindspore.ops._transforms import custom_vjp

_F = "mindspore.ops.functional"
_COMPLEX = (mstype.complex64, mstype.complex128)
_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8, mstype.uint16,
              mstype.uint32, mstype.uint64)


def _t(op, x, name="input"):
    return U.check_tensor(op, name, x)


def _pair(x, y):
    if not isinstance(x, Tensor):
        x = U.as_tensor(x, like=y)
    if not isinstance(y, Tensor):
        y = U.as_tensor(y, like=x)
    return x, y


def _like(value, x):
    return U.as_tensor(value, like=x)


def _numpy_int_op(op, fn, *xs):
    """An integer/bool op computed by NumPy (no gradient: integer results)."""
    arrays = []
    for i, x in enumerate(xs):
        _t(op, x, "input" if i == 0 else "other")
        if x.dtype not in _INT_TYPES and x.dtype != mstype.bool_:
            raise TypeError("For '%s', the dtype of the input must be an int or bool type, but got %s." % (op, x.dtype))
        arrays.append(U.shape_deciding_values(op, x))
    out = np.asarray(fn(*arrays))
    dtype = xs[0].dtype if out.dtype != np.bool_ else mstype.bool_
    t = U.const(out.astype(U.nptype(dtype)), dtype)
    return ops.reshape(t, out.shape) if out.ndim == 0 else t


# ---------------------------------------------------------------- integer ops
def bitwise_and_bits(input, other):
    """ops.bitwise_and (_functional_math.py binds the name): bools as logical_and, integers bit by bit."""
    x, y = _pair(input, other)
    if x.dtype == mstype.bool_ and y.dtype == mstype.bool_:
        return ops.logical_and(x, y)
    return _numpy_int_op("BitwiseAnd", np.bitwise_and, x, y)


@export(_F)
def bitwise_or(input, other):
    return _numpy_int_op("BitwiseOr", np.bitwise_or, *_pair(input, other))


@export(_F)
def bitwise_xor(input, other):
    return _numpy_int_op("BitwiseXor", np.bitwise_xor, *_pair(input, other))


@export(_F)
def bitwise_not(input):
    return _numpy_int_op("Invert", np.invert, input)


@export(_F)
def invert(x):
    return _numpy_int_op("Invert", np.invert, x)


@export(_F)
def bitwise_left_shift(input, other):
    return _numpy_int_op("LeftShift", np.left_shift, *_pair(input, other))


@export(_F)
def bitwise_right_shift(input, other):
    return _numpy_int_op("RightShift", np.right_shift, *_pair(input, other))


@export(_F)
def gcd(input, other):
    return _numpy_int_op("Gcd", np.gcd, *_pair(input, other))


@export(_F)
def lcm(input, other):
    return _numpy_int_op("Lcm", np.lcm, *_pair(input, other))


@export(_F)
def population_count(input_x):
    """The number of set bits of each element (uint8 result, as MindSpore)."""
    _t("PopulationCount", input_x, "input_x")
    if input_x.dtype not in _INT_TYPES:
        raise TypeError("For 'PopulationCount', the dtype of 'input_x' must be an int type, but got %s." % input_x.dtype)
    a = U.shape_deciding_values("PopulationCount", input_x)
    width = a.dtype.itemsize * 8
    bits = np.unpackbits(a.astype(a.dtype.newbyteorder("<")).view(np.uint8).reshape(a.shape + (width // 8,)), axis=-1)
    out = bits.sum(-1).astype(np.uint8)
    t = U.const(out, mstype.uint8)
    return ops.reshape(t, out.shape) if out.ndim == 0 else t


# ---------------------------------------------------------------- elementwise float ops
@export(_F)
def copysign(x, other):
    """|x| with the sign of other (the sign bit: -0.0 counts as negative)."""
    x, other = _pair(x, other)
    mag = ops.abs(U.to_float(x))
    neg = ops.signbit(other) if other.dtype in U._ALL_FLOATS else other < 0
    shape = tuple(np.broadcast_shapes(tuple(mag.shape), tuple(neg.shape)))
    mag = ops.broadcast_to(mag, shape)
    return ops.select(ops.broadcast_to(neg, shape), -mag, mag)


@export(_F)
def hypot(input, other):
    x, y = _pair(input, other)
    x, y = U.to_float(x), U.to_float(y)
    # scaled by the larger magnitude so squares neither overflow nor underflow
    m = ops.stop_gradient(ops.maximum(ops.abs(x), ops.abs(y)))
    safe = ops.select(m > 0, m, ops.ones_like(m))
    r = ops.sqrt((x / safe) ** 2 + (y / safe) ** 2) * safe
    return ops.select(m > 0, r, ops.zeros_like(r))


def _nan_pick(op, x1, x2, pick):
    x1, x2 = _pair(x1, x2)
    shape = tuple(np.broadcast_shapes(tuple(x1.shape), tuple(x2.shape)))
    a, b = ops.broadcast_to(x1, shape), ops.broadcast_to(x2, shape)
    if a.dtype not in U._ALL_FLOATS:
        return pick(a, b)
    both = pick(a, b)
    return ops.select(ops.isnan(b), a, ops.select(ops.isnan(a), b, both))


@export(_F)
def fmax(x1, x2):
    """maximum that ignores a NaN operand (NaN only where both are NaN)."""
    return _nan_pick("fmax", x1, x2, ops.maximum)


@export(_F)
def fmin(x1, x2):
    return _nan_pick("fmin", x1, x2, ops.minimum)


@export(_F)
def ldexp(x, other):
    x, other = _pair(x, other)
    xf = U.to_float(x)
    return xf * ops.pow(_like(2.0, xf), other.astype(xf.dtype))


@export(_F)
def nextafter(input, other):
    """The next representable float after input towards other (NumPy; no gradient, as MindSpore)."""
    input, other = _pair(input, other)
    if input.dtype not in U._FLOATS:
        raise TypeError("For 'NextAfter', the dtype of 'input' must be float32 or float64, but got %s." % input.dtype)
    x = U.shape_deciding_values("nextafter", input)
    a = np.nextafter(x, U.shape_deciding_values("nextafter", other).astype(x.dtype))
    t = U.const(a, input.dtype)
    return ops.reshape(t, a.shape) if a.ndim == 0 else t


@export(_F)
def logaddexp2(input, other):
    ln2 = _math.log(2.0)
    return ops.logaddexp(input * ln2, other * ln2) / ln2


@export(_F)
def logcumsumexp(input, axis):
    _t("logcumsumexp", input)
    return ops.cumulative_logsumexp(U.to_float(input), axis)


@export(_F)
def sgn(input):
    _t("sgn", input)
    if input.dtype in _COMPLEX:
        r = ops.abs(input)
        safe = ops.select(r > 0, r, ops.ones_like(r))
        z = ops.complex(ops.real(input) / safe, ops.imag(input) / safe)
        return z
    return ops.sign(input)


@export(_F)
def angle(input):
    _t("angle", input)
    if input.dtype in _COMPLEX:
        return ops.atan2(ops.imag(input), ops.real(input))
    x = U.to_float(input)
    return ops.select(x < 0, ops.fill(x.dtype, tuple(x.shape), _math.pi), ops.zeros_like(x))


@export(_F)
def polar(abs, angle):
    _t("Polar", abs, "abs")
    _t("Polar", angle, "angle")
    return ops.complex(abs * ops.cos(angle), abs * ops.sin(angle))


@export(_F)
def xdivy(x, y):
    """x / y, and 0 where x is 0 (even where y is 0 too)."""
    x, y = _pair(x, y)
    shape = tuple(np.broadcast_shapes(tuple(x.shape), tuple(y.shape)))
    x, y = ops.broadcast_to(x, shape), ops.broadcast_to(y, shape)
    zero = ops.equal(x, 0)
    q = ops.div(x, ops.select(zero, ops.ones_like(y), y))
    return ops.select(zero, ops.zeros_like(q), q)


@export(_F)
def truncate_div(x, y):
    x, y = _pair(x, y)
    if x.dtype in U._INTS and y.dtype in U._INTS:
        q = ops.trunc(ops.div(x.astype(mstype.float64), y.astype(mstype.float64)))
        return q.astype(x.dtype)
    return ops.trunc(ops.div(x, y))


@export(_F)
def truncate_mod(x, y):
    return ops.fmod(x, y)


@export(_F)
def tanhshrink(input):
    _t("Tanhshrink", input)
    return input - ops.tanh(input)


@export(_F)
def soft_shrink(x, lambd=0.5):
    _t("SoftShrink", x, "x")
    if isinstance(lambd, bool) or not isinstance(lambd, (int, float)) or lambd < 0:
        raise ValueError("For 'SoftShrink', the 'lambd' must be a float >= 0, but got %s." % (lambd,))
    return ops.softshrink(x, float(lambd))


@export(_F)
def threshold(input, thr, value):
    _t("Threshold", input)
    return ops.select(input > thr, input, ops.full_like(input, value))


@export(_F)
def renorm(input, p, axis, maxnorm):
    """Each sub-tensor along axis whose p-norm exceeds maxnorm is scaled down to norm maxnorm."""
    _t("Renorm", input)
    if isinstance(p, bool) or not isinstance(p, int) or p <= 0:
        raise ValueError("For 'Renorm', the 'p' must be a positive int, but got %s." % (p,))
    ax = U.norm_axis("Renorm", axis, input.ndim, "axis")
    others = tuple(i for i in range(input.ndim) if i != ax)
    norm = ops.pow(ops.sum(ops.pow(ops.abs(input), float(p)), others, True), 1.0 / p)
    scale = ops.select(norm > maxnorm, maxnorm / (norm + 1e-7), ops.ones_like(norm))
    return input * scale


@export(_F)
def approximate_equal(x, y, tolerance=1e-5):
    x, y = _pair(x, y)
    return ops.abs(x - y) < tolerance


@export(_F)
def is_complex(input):
    return isinstance(input, Tensor) and input.dtype in _COMPLEX


@export(_F)
def iscomplex(input):
    _t("iscomplex", input)
    if input.dtype in _COMPLEX:
        return ops.imag(input) != 0
    return ops.zeros(tuple(input.shape), mstype.bool_)


@export(_F)
def numel(input):
    _t("numel", input)
    return int(np.prod(input.shape, dtype=np.int64))


def _export_functional(names):
    import mindspore.ops.functional as F
    for name in names:
        if hasattr(F, name):
            export_as(name, getattr(F, name))


_export_functional(("dtype", "scalar_to_tensor", "tuple_to_array", "scalar_cast"))


# ---------------------------------------------------------------- gamma family
_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7)


def _lgamma_pos(x):
    """lgamma for x >= 0.5 (Lanczos, g = 7)."""
    z = x - 1.0
    a = _like(_LANCZOS[0], z) + 0.0 * z
    for i in range(1, len(_LANCZOS)):
        a = a + _LANCZOS[i] / (z + float(i))
    t = z + (_LANCZOS_G + 0.5)
    return 0.5 * _math.log(2 * _math.pi) + (z + 0.5) * ops.log(t) - t + ops.log(a)


def _float_input(op, x, name="input"):
    _t(op, x, name)
    if x.dtype in U._FLOATS:
        return x
    if x.dtype in U._ALL_FLOATS:
        return x.astype(mstype.float32)
    raise TypeError("For '%s', the dtype of '%s' must be float16, float32 or float64, but got %s." % (op, name, x.dtype))


def _reflect(x):
    """(mask x < 0.5, x for the direct branch, x for the reflected branch), both kept finite."""
    low = x < 0.5
    direct = ops.select(low, ops.ones_like(x), x)
    reflected = ops.select(low, x, ops.full_like(x, 0.25))
    return low, direct, reflected


@export(_F)
def lgamma(input):
    x = _float_input("Lgamma", input)
    low, direct, refl = _reflect(x)
    big = _lgamma_pos(direct)
    # lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x) for x < 0.5
    small = _math.log(_math.pi) - ops.log(ops.abs(ops.sin(refl * _math.pi))) - _lgamma_pos(1.0 - refl)
    out = ops.select(low, small, big)
    return out if out.dtype == input.dtype else out.astype(input.dtype)


_DIGAMMA_SHIFT = 10


def _digamma_pos(x):
    """digamma for x > 0: recurrence up to x + 10, then the asymptotic series."""
    acc = 0.0 * x
    for k in range(_DIGAMMA_SHIFT):
        acc = acc + 1.0 / (x + float(k))
    z = x + float(_DIGAMMA_SHIFT)
    w = 1.0 / (z * z)
    series = w * (1.0 / 12 - w * (1.0 / 120 - w * (1.0 / 252 - w * (1.0 / 240 - w * (1.0 / 132)))))
    return ops.log(z) - 0.5 / z - series - acc


@export(_F)
def digamma(input):
    x = _float_input("Digamma", input)
    low, direct, refl = _reflect(x)
    big = _digamma_pos(direct)
    # psi(x) = psi(1 - x) - pi / tan(pi x) for x < 0.5
    small = _digamma_pos(1.0 - refl) - _math.pi / ops.tan(refl * _math.pi)
    out = ops.select(low, small, big)
    return out if out.dtype == input.dtype else out.astype(input.dtype)


# Bernoulli numbers B_2k for k = 1..8
_BERNOULLI = (1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6, -3617.0 / 510)


def _polygamma_shifted(n, x, shift):
    """psi^(n)(x), n >= 1, for x + shift large: direct sum of the first terms, then the asymptotic
    series psi^(n)(z) ~ (-1)^(n+1) [(n-1)!/z^n + n!/(2 z^(n+1)) + sum B_2k (2k+n-1)!/(2k)! / z^(2k+n)]."""
    sgn = -1.0 if n % 2 == 0 else 1.0
    fact = float(_math.factorial(n))
    acc = 0.0 * x
    for k in range(shift):
        acc = acc + ops.pow(x + float(k), -float(n + 1))
    z = x + float(shift)
    tail = float(_math.factorial(n - 1)) * ops.pow(z, -float(n)) + 0.5 * fact * ops.pow(z, -float(n + 1))
    for k, b in enumerate(_BERNOULLI, start=1):
        coef = b * _math.factorial(2 * k + n - 1) / _math.factorial(2 * k)
        tail = tail + coef * ops.pow(z, -float(2 * k + n))
    return sgn * (fact * acc + tail)


_POLYGAMMA_FLOOR = 1000.0


@export(_F)
def polygamma(n, input):
    x = _float_input("Polygamma", input)
    k = int(U.shape_deciding_values("polygamma", n).reshape(-1)[0]) if isinstance(n, Tensor) else n
    k = U.check_int("Polygamma", "n", k, 0)
    if k == 0:
        return digamma(input)
    # the recurrence shifts every element past 15; below -_POLYGAMMA_FLOOR it would take too many
    # terms, and those elements give NaN rather than a hang
    values = U.shape_deciding_values("Polygamma", x)
    lowest = max(float(np.nanmin(values, initial=0.0)), -_POLYGAMMA_FLOOR)
    shift = 15 + (int(_math.ceil(-lowest)) if lowest < 0 else 0)
    out = _polygamma_shifted(k, x, shift)
    if np.any(values < -_POLYGAMMA_FLOOR):
        out = ops.select(x < -_POLYGAMMA_FLOOR, ops.full_like(out, float("nan")), out)
    return out if out.dtype == input.dtype else out.astype(input.dtype)


@export(_F)
def mvlgamma(input, p):
    x = _float_input("Mvlgamma", input)
    p = U.check_int("Mvlgamma", "p", p, 1)
    if np.any(U.shape_deciding_values("mvlgamma", x) <= (p - 1) / 2.0):
        raise ValueError("For 'Mvlgamma', all elements of 'input' must be greater than (p-1)/2 = %s." % ((p - 1) / 2.0))
    out = _like(p * (p - 1) / 4.0 * _math.log(_math.pi), x) + 0.0 * x
    for i in range(p):
        out = out + lgamma(x - i / 2.0)
    return out


# ---------------------------------------------------------------- incomplete gamma (NumPy)
def _lgamma_np(a):
    from math import lgamma as lg
    return np.vectorize(lg, otypes=[np.float64])(a)


def _igamma_np(a, x):
    """Regularized lower incomplete gamma P(a, x): series for x < a + 1, else Lentz's continued
    fraction for Q; NaN for a <= 0 or x < 0 (MindSpore's domain)."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (x >= 0)
    lg = np.where(ok, _lgamma_np(np.where(ok, a, 1.0)), 0.0)
    xs = np.where(ok, x, 1.0)
    aa = np.where(ok, a, 1.0)
    front = np.exp(np.where(xs > 0, aa * np.log(np.where(xs > 0, xs, 1.0)), -np.inf) - xs - lg)
    use_series = xs < aa + 1
    term = 1.0 / aa
    total = term.copy()
    ap = aa.copy()
    for _ in range(500):
        ap = ap + 1
        term = term * xs / ap
        total = total + term
    p_series = front * total
    b = xs + 1 - aa
    c = np.full(a.shape, 1e300)
    d = 1.0 / np.where(b == 0, 1e-300, b)
    h = d.copy()
    for i in range(1, 500):
        an = -i * (i - aa)
        b = b + 2
        d = an * d + b
        d = np.where(np.abs(d) < 1e-300, 1e-300, d)
        c = b + an / c
        c = np.where(np.abs(c) < 1e-300, 1e-300, c)
        d = 1.0 / d
        h = h * d * c
    q_frac = front * h
    out = np.where(ok, np.where(use_series, p_series, 1.0 - q_frac), np.nan)
    return out


@custom_vjp
def _igamma(a, x):
    r = _igamma_np(U.shape_deciding_values("igamma", a), U.shape_deciding_values("igamma", x))
    return _const_like(r, x)


def _const_like(r, x):
    t = U.const(r, x.dtype)
    return ops.reshape(t, r.shape) if r.ndim == 0 else t


def _igamma_bwd(a, x, out, dout):
    an = U.shape_deciding_values("Igamma", a).astype(np.float64)
    xn = U.shape_deciding_values("Igamma", x).astype(np.float64)
    an, xn = np.broadcast_arrays(an, xn)
    # dP/dx = x^(a-1) e^-x / Gamma(a); dP/da has no closed form: central differences in NumPy
    dx = np.exp((an - 1) * np.log(np.where(xn > 0, xn, 1.0)) - xn - _lgamma_np(np.where(an > 0, an, 1.0)))
    dx = np.where(xn > 0, dx, 0.0)
    h = 1e-6 * np.maximum(1.0, np.abs(an))
    da = (_igamma_np(an + h, xn) - _igamma_np(an - h, xn)) / (2 * h)
    ga = dout * _const_like(da, x)
    gx = dout * _const_like(dx, x)
    return _sum_to(ga, a), _sum_to(gx, x)


def _sum_to(g, like):
    shape = tuple(like.shape)
    if tuple(g.shape) == shape:
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and g.shape[i + lead] != 1)
    return ops.reshape(ops.sum(g, axes), shape) if axes else ops.reshape(g, shape)


_igamma.defbwd(_igamma_bwd)


@export(_F)
def igamma(input, other):
    """Regularized lower incomplete gamma P(input, other); its gradient with respect to input (a)
    is a central difference (MindSpore has IgammaGradA)."""
    a, x = _pair(input, other)
    for name, t in (("input", a), ("other", x)):
        if t.dtype not in U._FLOATS:
            raise TypeError("For 'Igamma', the dtype of '%s' must be float32 or float64, but got %s." % (name, t.dtype))
    return _igamma(a, x)


@export(_F)
def igammac(input, other):
    return 1.0 - igamma(input, other)


# ---------------------------------------------------------------- zeta, erfinv, Bessel
@export(_F)
def zeta(input, other):
    """Hurwitz zeta sum_k (other + k)^-input by Euler-Maclaurin (composed of ops); NaN for input < 1
    and inf at input == 1, as MindSpore's Zeta."""
    s, q = _pair(input, other)
    s, q = U.to_float(s), U.to_float(q)
    shape = tuple(np.broadcast_shapes(tuple(s.shape), tuple(q.shape)))
    s, q = ops.broadcast_to(s, shape), ops.broadcast_to(q, shape)
    valid = s > 1
    ss = ops.select(valid, s, ops.full_like(s, 2.0))
    n = 12
    acc = 0.0 * ss
    for k in range(n):
        acc = acc + ops.pow(q + float(k), -ss)
    a = q + float(n)
    total = acc + ops.pow(a, 1.0 - ss) / (ss - 1.0) + 0.5 * ops.pow(a, -ss)
    rising = ss  # s (s+1) ... (s+2j-2)
    for j, b in enumerate(_BERNOULLI, start=1):
        total = total + b / _math.factorial(2 * j) * rising * ops.pow(a, -ss - float(2 * j - 1))
        rising = rising * (ss + float(2 * j - 1)) * (ss + float(2 * j))
    nan = ops.full_like(total, float("nan"))
    inf = ops.full_like(total, float("inf"))
    return ops.select(valid, total, ops.select(ops.equal(s, 1.0), inf, nan))


@export(_F)
def erfinv(input):
    """Inverse of erf: Giles' single-precision approximation refined by two Newton steps on erf
    (the ops chain differentiates to sqrt(pi)/2 exp(erfinv(x)^2))."""
    x = _float_input("Erfinv", input)
    inside = ops.abs(x) < 1
    xs = ops.select(inside, x, ops.zeros_like(x))
    w = -ops.log((1.0 - xs) * (1.0 + xs))
    wc = w - 2.5
    p = _like(2.81022636e-08, x) + 0.0 * x
    for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
              -0.00417768164, 0.246640727, 1.50140941):
        p = p * wc + c
    wb = ops.sqrt(ops.select(w >= 5.0, w, ops.full_like(w, 5.0))) - 3.0
    q = _like(-0.000200214257, x) + 0.0 * x
    for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
              0.00943887047, 1.00167406, 2.83297682):
        q = q * wb + c
    y = ops.select(w < 5.0, p, q) * xs
    k = 2.0 / _math.sqrt(_math.pi)
    for _ in range(2):
        y = y - (ops.erf(y) - xs) / (k * ops.exp(-y * y))
    edge = ops.select(ops.equal(x, 1.0), ops.full_like(x, float("inf")),
                      ops.select(ops.equal(x, -1.0), ops.full_like(x, float("-inf")), ops.full_like(x, float("nan"))))
    out = ops.select(inside, y, edge)
    return out if out.dtype == input.dtype else out.astype(input.dtype)


def _poly(t, coeffs):
    out = _like(coeffs[-1], t) + 0.0 * t
    for c in coeffs[-2::-1]:
        out = out * t + c
    return out


@export(_F)
def bessel_i0(x):
    """Modified Bessel function I0 (Abramowitz & Stegun 9.8.1 / 9.8.2, relative error < 2e-7)."""
    v = _float_input("BesselI0", x, "x")
    ax = ops.abs(v)
    small = ax <= 3.75
    ts = ops.select(small, ax, ops.zeros_like(ax)) / 3.75
    lo = _poly(ts * ts, (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813))
    ab = ops.select(small, ops.full_like(ax, 3.75), ax)
    tb = 3.75 / ab
    hi = _poly(tb, (0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706,
                    0.02635537, -0.01647633, 0.00392377)) * ops.exp(ab) / ops.sqrt(ab)
    return ops.select(small, lo, hi)


@export(_F)
def i0(input):
    return bessel_i0(input)


@export(_F)
def bessel_j0(x):
    """Bessel function J0 (Abramowitz & Stegun 9.4.1 / 9.4.3, absolute error < 5e-8)."""
    v = _float_input("BesselJ0", x, "x")
    ax = ops.abs(v)
    small = ax <= 3.0
    ts = ops.select(small, ax, ops.zeros_like(ax)) / 3.0
    lo = _poly(ts * ts, (1.0, -2.2499997, 1.2656208, -0.3163866, 0.0444479, -0.0039444, 0.00021))
    ab = ops.select(small, ops.full_like(ax, 3.0), ax)
    tb = 3.0 / ab
    f0 = _poly(tb, (0.79788456, -0.00000077, -0.00552740, -0.00009512, 0.00137237, -0.00072805, 0.00014476))
    th = ab + _poly(tb, (-0.78539816, -0.04166397, -0.00003954, 0.00262573, -0.00054125, -0.00029333, 0.00013558))
    hi = f0 * ops.cos(th) / ops.sqrt(ab)
    return ops.select(small, lo, hi)


@export(_F)
def eps(x):
    """x's shape filled with its float dtype's machine epsilon (the gap between 1 and the next value)."""
    _t("Eps", x, "x")
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError("For 'Eps', the dtype of 'x' must be float16, float32 or float64, but got %s." % x.dtype)
    return ops.full_like(x, float(np.finfo(U.nptype(x.dtype)).eps))


@export(_F)
def eq(input, other):
    """Alias of ops.equal."""
    return ops.equal(input, other)

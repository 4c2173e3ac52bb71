"""mindspore.ops.jet and mindspore.ops.derivative (also ops.functional.jet / derivative).

jet(fn, primals, series): series[k] is the (k+1)-th derivative of each input along a path through
the primals; out_series[k] is the (k+1)-th derivative of fn's output along that path (derivatives,
not Taylor coefficients: MindSpore's example feeds series [1, 0, 0] and gets f', f'', f''').
derivative(fn, primals, order) is jet with series (1, 0, ..., 0) and only the order-th derivative.

gradstep follows the path explicitly: x(t) = primal + sum_k series[k] t^(k+1) / (k+1)!, a
polynomial in a scalar t, and the k-th derivative of fn(x(t)) at t = 0 is k nested jvps in t
(the core's forward mode nests). Every op is recorded like any other, so the debugger shows them
and grad of jet differentiates them. Integer primals are computed as Float32, as in MindSpore.
"""
import numpy as np

import mindspore
import mindspore.ops as _ops
from mindspore import Tensor

__all__ = ["jet", "derivative"]


def _as_float(value):
    if isinstance(value, Tensor) and not mindspore.dtype_to_nptype(value.dtype) in (
            np.float16, np.float32, np.float64):
        return value.astype(mindspore.float32)
    return value


def _check(primals, series):
    if not isinstance(primals, (Tensor, tuple)) or (
            isinstance(primals, tuple) and not all(isinstance(p, Tensor) for p in primals)):
        raise TypeError("For 'jet', 'primals' must be a Tensor or a tuple of Tensors, but got %s."
                        % type(primals).__name__)
    if isinstance(primals, Tensor) != isinstance(series, Tensor) or not isinstance(series, (Tensor, tuple)):
        raise TypeError("For 'jet', the type of 'series' must be the same as that of 'primals', but got %s and %s."
                        % (type(series).__name__, type(primals).__name__))
    if isinstance(primals, tuple) and len(primals) != len(series):
        raise ValueError("For 'jet', 'series' must have as many elements as 'primals', but got %d and %d."
                         % (len(series), len(primals)))


def _path(primal, series, t):
    """primal + sum_k series[k] t^(k+1) / (k+1)!"""
    x = primal
    power = None
    factorial = 1.0
    for k in range(series.shape[0]):
        power = t if power is None else power * t
        factorial *= k + 1
        x = x + series[k] * power / factorial
    return x


def _derivatives(fn, primals, series, orders):
    """fn(primals) and its derivatives of the given orders along the path (outputs kept nested)."""
    t0 = Tensor(np.array(0.0, np.float32))
    one = Tensor(np.array(1.0, np.float32))

    def along(t):
        return fn(*[_path(p, s, t) for p, s in zip(primals, series)])

    levels = [along]
    for _ in range(max(orders)):
        inner = levels[-1]
        levels.append(lambda t, inner=inner: _ops.jvp(inner, t, one)[1])
    return fn(*primals), [levels[k](t0) for k in orders]


def _stack(per_order):
    first = per_order[0]
    if isinstance(first, (tuple, list)):
        return [_stack([o[i] for o in per_order]) for i in range(len(first))]
    return _ops.stack(list(per_order), 0)


def _out(value):
    return list(value) if isinstance(value, tuple) else value


def jet(fn, primals, series):
    """(fn(primals), the 1st to n-th derivatives of fn's output), n = series' first dimension."""
    _check(primals, series)
    single = isinstance(primals, Tensor)
    prims = [_as_float(p) for p in ((primals,) if single else primals)]
    sers = [_as_float(s) for s in ((series,) if single else series)]
    order = sers[0].shape[0] if sers and len(sers[0].shape) else 0
    if order < 1 or any(len(s.shape) == 0 or s.shape[0] != order for s in sers):
        raise ValueError("For 'jet', every element of 'series' must have the same first dimension (the order), "
                         "at least 1.")
    out, per_order = _derivatives(fn, prims, sers, list(range(1, order + 1)))
    return _out(out), _stack(per_order)


def derivative(fn, primals, order):
    """(fn(primals), the order-th derivative of fn's output) with input derivatives 1, 0, 0, ..."""
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:
        raise ValueError("For 'derivative', 'order' must be a positive int, but got %r." % (order,))
    if not isinstance(primals, (Tensor, tuple)) or (
            isinstance(primals, tuple) and not all(isinstance(p, Tensor) for p in primals)):
        raise TypeError("For 'derivative', 'primals' must be a Tensor or a tuple of Tensors, but got %s."
                        % type(primals).__name__)
    prims = [_as_float(p) for p in ((primals,) if isinstance(primals, Tensor) else primals)]
    sers = []
    for p in prims:
        unit = np.zeros((order,) + tuple(p.shape), mindspore.dtype_to_nptype(p.dtype))
        unit[0] = 1
        sers.append(Tensor(unit))
    out, per_order = _derivatives(fn, prims, sers, [order])
    return _out(out), _out(per_order[0])


_ops.jet = jet
_ops.derivative = derivative

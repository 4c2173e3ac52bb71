"""Helpers the API test scripts share."""
import numpy as np


def raises(exc_type, fn, *args, match=None, **kwargs):
    """Calls fn and checks it raises exc_type whose message contains `match`."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        if match is not None and match not in str(e):
            raise AssertionError("message %r does not contain %r" % (str(e), match))
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc_type.__name__))


def close(actual, expected, rtol=1e-5, atol=1e-6):
    """actual (a Tensor or array) equals expected within tolerances, with the same shape."""
    a = actual.asnumpy() if hasattr(actual, "asnumpy") else np.asarray(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, "shape %s != %s" % (a.shape, e.shape)
    assert np.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True), "%s != %s" % (a, e)
    return True


def fd_grad(f, a, eps=1e-6):
    """Central finite differences of the scalar function f (of one Tensor) at the float64 array a."""
    from mindspore import Tensor
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        p, m = a.copy(), a.copy()
        p[i] += eps
        m[i] -= eps
        g[i] = (float(f(Tensor(p)).asnumpy()) - float(f(Tensor(m)).asnumpy())) / (2 * eps)
    return g


def check_grad(f, a):
    """mindspore.grad of f at a equals its finite differences (float64)."""
    import mindspore as ms
    from mindspore import Tensor
    got = ms.grad(f)(Tensor(a)).asnumpy()
    assert np.allclose(got, fd_grad(f, a), rtol=1e-5, atol=1e-6), got

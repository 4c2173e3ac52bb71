"""Complex64 / Complex128 tensors: construction from NumPy and Python complex numbers, asnumpy
round trips, Cast, printing, ops with complex kernels, ops.real/imag/conj/complex and the Tensor
methods, MindSpore's refusals by ops without complex kernels, and gradients (GradOperation with
sens_param, ms.grad) following MindSpore's convention dout * conj(df/dz), in PyNative and graph
mode."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, context, nn, ops
from mindspore.common import dtype as mstype
from mindspore.ops import operations as P

from _check import close, raises

# ---------------------------------------------------------------- construction and conversion
z_np = np.array([0.6 + 0.7j, -0.4 + 0.9j, 0.3 - 0.5j], np.complex64)
z = Tensor(z_np)
assert z.dtype == mstype.complex64 and str(z.dtype) == "Complex64"
assert z.asnumpy().dtype == np.complex64 and np.array_equal(z.asnumpy(), z_np)
z128 = Tensor(z_np.astype(np.complex128))
assert z128.dtype == ms.complex128
assert Tensor(1 + 2j).dtype == ms.complex64
assert Tensor([1, 2 + 1j]).dtype == ms.complex64
assert Tensor(np.complex128(1 - 1j)).dtype == ms.complex128
assert Tensor(z_np, ms.float32).asnumpy().tolist() == Tensor(z_np.real).asnumpy().tolist()
assert Tensor(1.5 - 2j).item() == 1.5 - 2j and isinstance(Tensor(1.5 - 2j).item(), complex)
assert mstype.dtype_to_nptype(ms.complex64) == np.complex64
assert mstype.dtype_to_nptype(mstype.complex128) == np.complex128
assert mstype.dtype_to_pytype(ms.complex64) is complex
assert mstype.pytype_to_dtype(np.complex64) == ms.complex64
assert ms.complex64 in mstype.number_type and ms.complex128 in mstype.all_types
assert mstype.complex_type == (ms.complex64, ms.complex128)
assert z.is_complex() and not Tensor(np.ones(2, np.float32)).is_complex()
printed = str(Tensor(np.array([1.5 - 2j], np.complex64)))
assert "1.5-2.j" in printed, printed

# Cast: real -> complex has imaginary part 0; complex -> real keeps the real part.
r = Tensor(np.array([1.5, -2.0], np.float32)).astype(ms.complex64)
assert r.dtype == ms.complex64 and r.asnumpy().tolist() == [1.5 + 0j, -2 + 0j]
close(z.astype(ms.float32), z_np.real)
close(ops.cast(z, ms.float64), z_np.real.astype(np.float64))
assert ops.cast(z, ms.complex128).dtype == ms.complex128

# ---------------------------------------------------------------- ops
w_np = np.array([0.2 + 0.1j, 0.8 + 0.4j, -0.9 + 0.7j], np.complex64)
w = Tensor(w_np)
close(z + w, z_np + w_np)
close(z - w, z_np - w_np)
close(z * w, z_np * w_np)
close(z / w, z_np / w_np)
close(-z, -z_np)
close(z * 2, z_np * 2)
close(z + 1j, z_np + 1j)
for fn, ref in ((ops.exp, np.exp), (ops.log, np.log), (ops.sqrt, np.sqrt), (ops.tanh, np.tanh),
                (ops.sin, np.sin), (ops.cos, np.cos), (ops.square, np.square)):
    close(fn(z), ref(z_np), rtol=1e-5, atol=1e-5)
close(ops.sigmoid(z), 1 / (1 + np.exp(-z_np)), rtol=1e-5, atol=1e-5)
close(ops.abs(z), np.abs(z_np))
assert ops.abs(z).dtype == ms.float32 and ops.abs(z128).dtype == ms.float64
assert (z + Tensor(np.float64(1.0))).dtype == ms.complex128  # complex64 with float64
close(ops.real(z), z_np.real)
close(ops.imag(z), z_np.imag)
close(ops.conj(z), np.conj(z_np))
close(z.real(), z_np.real)
close(z.imag(), z_np.imag)
close(z.conj(), np.conj(z_np))
c = ops.complex(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, -4.0], np.float32)))
assert c.dtype == ms.complex64 and c.asnumpy().tolist() == [1 + 3j, 2 - 4j]
m_np = np.array([[1 + 1j, 2], [-1j, 1 + 2j]], np.complex128)
m = Tensor(m_np)
close(ops.matmul(m, m), m_np @ m_np)
close(ops.BatchMatMul()(m.reshape(1, 2, 2), m.reshape(1, 2, 2)), (m_np @ m_np).reshape(1, 2, 2))
close(ops.ReduceSum()(m, 0), m_np.sum(0))
close(ops.ReduceMean()(m), m_np.mean())
close(ops.transpose(m, (1, 0)), m_np.T)
close(ops.concat((m, m), 0), np.concatenate([m_np, m_np], 0))
close(ops.stack((z, w)), np.stack([z_np, w_np]))
close(ops.tile(z, (2,)), np.tile(z_np, 2))
close(ops.broadcast_to(z, (2, 3)), np.broadcast_to(z_np, (2, 3)))
close(ops.expand_dims(z, 0), z_np[None])
close(z[1:], z_np[1:])
close(ops.gather(z, Tensor(np.array([2, 0], np.int32)), 0), z_np[[2, 0]])
close(ops.zeros_like(z), np.zeros(3, np.complex64))
close(ops.ones_like(z), np.ones(3, np.complex64))
assert ops.equal(z, z).asnumpy().all() and not ops.not_equal(z, z).asnumpy().any()
close(P.BiasAdd()(m, Tensor(np.array([1j, 1], np.complex128))), m_np + np.array([1j, 1]))
close(P.Dense()(z, w, Tensor(np.array(-0.5 + 0.6j, np.complex64))), (z_np * w_np).sum() - 0.5 + 0.6j)

# ---------------------------------------------------------------- refusals
raises(TypeError, ops.relu, z, match="For 'ReLU', the type of 'x' should be Tensor[")
raises(TypeError, ops.relu, z, match="but got Tensor[Complex64].")
raises(TypeError, ops.maximum, z, z, match="For 'Maximum'")
raises(TypeError, lambda: z > w, match="but got Tensor[Complex64].")
raises(TypeError, ops.softmax, z, match="For 'Softmax'")

# ---------------------------------------------------------------- gradients
# MindSpore's own test_dense_op.py test_1d_complex64_backward numbers.
x_d = Tensor(np.array([0.6 + 0.7j, 0.7 + 0.9j, 0.7j], np.complex64))
w_d = Tensor(np.array([0.2 + 0.1j, 0.8 + 0.4j, 0.9 + 0.7j], np.complex64))
b_d = Tensor(np.array(-0.5 + 0.6j, np.complex64))
dout = Tensor(np.array(-1.3 - 0.1j, np.complex64))


class DenseNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = P.Dense()

    def construct(self, x, w, b):
        return self.dense(x, w, b)


grad_all = ops.GradOperation(get_all=True, sens_param=True)
for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
    context.set_context(mode=mode)
    dx, dw, db = grad_all(DenseNet())(x_d, w_d, b_d, dout)
    assert dx.dtype == ms.complex64
    close(dx, np.array([-0.27 + 0.11j, -1.08 + 0.44j, -1.24 + 0.82j], np.complex64), atol=1e-5)
    close(dw, np.array([-0.85 + 0.85j, -1.0 + 1.1j, -0.07 + 0.91j], np.complex64), atol=1e-5)
    close(db, np.array(-1.3 - 0.1j, np.complex64), atol=1e-5)
    # tanh: dout * conj(1 - y^2)
    (dt,) = grad_all(ops.tanh)(z, Tensor(np.array([1 + 1j, -1, 0.5j], np.complex64)))
    y = np.tanh(z_np)
    close(dt, np.array([1 + 1j, -1, 0.5j]) * np.conj(1 - y * y), rtol=1e-5, atol=1e-5)
    # Complex(re, im): d re = Re(dout), d im = Im(dout), real gradients.
    re = Tensor(np.array([1.0, 2.0], np.float32))
    im = Tensor(np.array([0.5, -1.0], np.float32))
    dre, dim = grad_all(ops.complex)(re, im, Tensor(np.array([2 - 3j, 1j], np.complex64)))
    assert dre.dtype == ms.float32
    close(dre, np.array([2.0, 0.0], np.float32))
    close(dim, np.array([-3.0, 1.0], np.float32))
    # Real / Imag: complex(dout, 0) and complex(0, dout).
    (dr,) = grad_all(ops.real)(z, Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    close(dr, np.array([1, 2, 3], np.complex64))
    (di,) = grad_all(ops.imag)(z, Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    close(di, np.array([1j, 2j, 3j], np.complex64))
    # Data movement passes complex gradients through (Gather's rule scatters with UnsortedSegmentSum).
    idx = Tensor(np.array([2, 0, 2], np.int32))
    (dg,) = grad_all(lambda t: ops.gather(t, idx, 0))(z, Tensor(np.array([1j, 2, 1 + 1j], np.complex64)))
    close(dg, np.array([2, 0, 1 + 2j], np.complex64))
    # Graph mode refuses complex in ops without complex kernels, as PyNative does.
    raises(TypeError, ops.GradOperation()(ops.relu), z, match="but got Tensor[Complex64].")
context.set_context(mode=context.PYNATIVE_MODE)


# ms.grad of a real loss of complex128 inputs against finite differences (dL/dRe + i dL/dIm).
def loss(t):
    return ops.real(ops.sum(ops.exp(t) * ops.conj(t) + ops.sin(t) / (t + 2)))


a = np.array([0.3 + 0.2j, -0.5 + 0.8j], np.complex128)
got = ms.grad(loss)(Tensor(a)).asnumpy()
eps = 1e-6
fd = np.zeros_like(a)
for i in range(a.size):
    for step in (eps, eps * 1j):
        p, q = a.copy(), a.copy()
        p[i] += step
        q[i] -= step
        d = (float(loss(Tensor(p)).asnumpy()) - float(loss(Tensor(q)).asnumpy())) / (2 * eps)
        fd[i] += d if step == eps else 1j * d
assert np.allclose(got, fd, rtol=1e-5, atol=1e-6), (got, fd)

"""Linear algebra of mindspore.ops: inverse/det/slogdet/logdet/cholesky/solve/svd/qr/pinv against
NumPy, their gradients against finite differences, and the composed helpers (cross, cov, trapz,
vander, batch_dot, matrix_diag family)."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, fd_grad, raises

rng = np.random.default_rng(0)
A = rng.standard_normal((3, 3)) + 3 * np.eye(3)
B = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
close(ops.inverse(Tensor(A)), np.linalg.inv(A), rtol=1e-12)
close(ops.det(Tensor(B)), np.linalg.det(B), rtol=1e-12)
sign, logabs = ops.slogdet(Tensor(np.array([[[-4.5, -1.5], [7.0, 6.0]], [[2.5, 0.5], [3.0, 9.0]]], np.float32)))
close(sign, [-1.0, 1.0])
close(logabs, [2.80336046, 3.04452229])
close(ops.logdet(Tensor(np.array([[[-4.5, -1.5], [7.0, 6.0]], [[2.5, 0.5], [3.0, 9.0]]]))), [np.nan, np.log(21.0)])
raises(ValueError, ops.det, Tensor(np.ones((2, 3))), match="For 'MatrixDeterminant'")
raises(ValueError, ops.inverse, Tensor(np.zeros((2, 2))), match="not invertible")
for f in (lambda a: ops.det(a), lambda a: ops.logdet(a), lambda a: ops.inverse(a).sum() ** 2):
    close(ms.grad(f)(Tensor(A)), fd_grad(f, A), rtol=1e-6, atol=1e-8)
close(ops.matrix_power(Tensor(A), 3), np.linalg.matrix_power(A, 3), rtol=1e-12)
close(ops.matrix_power(Tensor(A), -2), np.linalg.matrix_power(A, -2), rtol=1e-10)
close(ops.matrix_power(Tensor(A), 0), np.eye(3))
rot = np.array([[0.0, -1.0], [1.0, 0.0]])
close(ops.matrix_exp(Tensor(rot)), [[np.cos(1), -np.sin(1)], [np.sin(1), np.cos(1)]], rtol=1e-12)
close(ops.matrix_exp(Tensor(5 * rot)), [[np.cos(5), -np.sin(5)], [np.sin(5), np.cos(5)]], rtol=1e-10, atol=1e-12)
rhs = rng.standard_normal((3, 2))
close(ops.matrix_solve(Tensor(A), Tensor(rhs)), np.linalg.solve(A, rhs), rtol=1e-12)
close(ops.matrix_solve(Tensor(A), Tensor(rhs), adjoint=True), np.linalg.solve(A.T, rhs), rtol=1e-12)
spd = A @ A.T
close(ops.cholesky(Tensor(spd)), np.linalg.cholesky(spd), rtol=1e-12)
close(ops.cholesky(Tensor(spd), upper=True), np.linalg.cholesky(spd).T, rtol=1e-12)
close(ops.cholesky_inverse(ops.cholesky(Tensor(spd))), np.linalg.inv(spd), rtol=1e-10)
chol = lambda a: (ops.cholesky((a + ops.swapaxes(a, 0, 1)) * 0.5) * Tensor(np.arange(9.0).reshape(3, 3))).sum()
close(ms.grad(chol)(Tensor(spd)), fd_grad(chol, spd), rtol=1e-6, atol=1e-8)
M = np.array([[1.0, 2.0], [-4.0, -5.0], [2.0, 1.0]])
s, u, v = ops.svd(Tensor(M), full_matrices=True)
close(s, [7.0652843, 1.040081], rtol=1e-6)
assert u.shape == (3, 3) and v.shape == (2, 2)
close(ops.matmul(u[:, :2] * s, v.T), M, rtol=1e-12)
snorm = lambda a: ops.svd(a, compute_uv=False).sum()
close(ms.grad(snorm)(Tensor(M)), fd_grad(snorm, M), rtol=1e-6, atol=1e-8)
q, r = ops.qr(Tensor(M))
close(ops.matmul(q, r), M, rtol=1e-12)
assert q.shape == (3, 2) and r.shape == (2, 2)
close(ops.pinv(Tensor(M)), np.linalg.pinv(M), rtol=1e-10)
close(ops.lstsq(Tensor(M), Tensor(np.array([1.0, 2.0, 3.0]))), np.linalg.lstsq(M, [1.0, 2.0, 3.0], rcond=None)[0])

x, y = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
close(ops.cross(Tensor(x), Tensor(y)), np.cross(x, y), rtol=1e-12)
close(ops.cross(Tensor(x.T), Tensor(y.T), dim=0), np.cross(x, y).T, rtol=1e-12)
raises(ValueError, ops.cross, Tensor(np.ones((2, 2))), Tensor(np.ones((2, 2))), match="For 'Cross'")
close(ops.mv(Tensor(M), Tensor(np.array([1.0, 2.0]))), M @ [1.0, 2.0])
close(ops.adjoint(Tensor(M)), M.T)
close(ops.chain_matmul(Tensor(M), Tensor(M.T), Tensor(M)), M @ M.T @ M, rtol=1e-12)
close(ops.block_diag(Tensor(np.ones((1, 2))), Tensor(np.array([3.0])), Tensor(2 * np.eye(2))),
      [[1, 1, 0, 0, 0], [0, 0, 3, 0, 0], [0, 0, 0, 2, 0], [0, 0, 0, 0, 2]])
obs = rng.standard_normal((3, 6))
close(ops.cov(Tensor(obs)), np.cov(obs), rtol=1e-12)
fw, aw = np.array([1, 2, 1, 3, 1, 1]), rng.uniform(0.5, 1.5, 6)
close(ops.cov(Tensor(obs), fweights=Tensor(fw), aweights=Tensor(aw)), np.cov(obs, fweights=fw, aweights=aw), rtol=1e-12)
close(ops.cov(Tensor(obs), correction=0), np.cov(obs, bias=True), rtol=1e-12)
close(ops.dist(Tensor(x), Tensor(y)), np.linalg.norm(x - y), rtol=1e-12)
close(ops.dist(Tensor(x), Tensor(y), p=1), np.abs(x - y).sum(), rtol=1e-12)
close(ops.dist(Tensor(x), Tensor(y), p=float("inf")), np.abs(x - y).max())
close(ops.trapz(Tensor(x)), np.trapz(x), rtol=1e-12)
close(ops.trapz(Tensor(x), dx=0.5, dim=0), np.trapz(x, dx=0.5, axis=0), rtol=1e-12)
xs = np.array([0.0, 0.5, 2.0])
close(ops.trapz(Tensor(x), Tensor(xs)), np.trapz(x, xs), rtol=1e-12)
close(ops.vander(Tensor(np.array([1.0, 2.0, 3.0])), 4), np.vander([1.0, 2.0, 3.0], 4))
close(ops.batch_dot(Tensor(np.ones((2, 2, 3))), Tensor(np.ones((2, 3, 2))), (-1, -2)), np.full((2, 2, 2), 3.0))
close(ops.batch_dot(Tensor(np.ones((2, 2))), Tensor(np.ones((2, 3, 2))), (1, 2)), np.full((2, 3), 2.0))
assert ops.batch_dot(Tensor(np.ones((6, 2, 3, 4))), Tensor(np.ones((6, 5, 4, 8)))).shape == (6, 2, 3, 5, 8)
assert ops.batch_dot(Tensor(np.ones((2, 2, 4))), Tensor(np.ones((2, 5, 4, 5))), 2).shape == (2, 2, 5, 5)

m = np.arange(1.0, 13.0).reshape(3, 4)
close(ops.matrix_diag_part(Tensor(m)), [1.0, 6.0, 11.0])
# TensorFlow's layout: RIGHT_LEFT right-aligns superdiagonals and left-aligns subdiagonals
close(ops.matrix_diag_part(Tensor(m), k=(-1, 2)), [[0.0, 3.0, 8.0], [2.0, 7.0, 12.0], [1.0, 6.0, 11.0], [5.0, 10.0, 0.0]])
close(ops.matrix_diag_part(Tensor(m), k=(-1, 1), align="LEFT_RIGHT"),
      [[2.0, 7.0, 12.0], [1.0, 6.0, 11.0], [0.0, 5.0, 10.0]])
close(ops.matrix_diag(Tensor(np.array([1.0, 2.0]))), np.diag([1.0, 2.0]))
close(ops.matrix_diag(Tensor(np.array([1.0, 2.0])), k=1), np.diag([1.0, 2.0], 1))
close(ops.matrix_diag(Tensor(np.array([1.0, 2.0])), k=-1, num_rows=3, num_cols=4, padding_value=9),
      [[9, 9, 9, 9], [1, 9, 9, 9], [9, 2, 9, 9]])
close(ops.matrix_set_diag(Tensor(m), Tensor(np.zeros(3))), np.where(np.eye(3, 4) > 0, 0.0, m))
band = ops.matrix_diag_part(Tensor(m), k=(-1, 2))
close(ops.matrix_set_diag(Tensor(np.zeros((3, 4))), band, k=(-1, 2)), np.triu(np.tril(m, 2), -1))
close(ms.grad(lambda d: ops.matrix_set_diag(Tensor(m), d).sum() * 2)(Tensor(np.ones(3))), [2.0, 2.0, 2.0])

# LU: A = P L U with 1-based sequential row swaps (LAPACK's getrf layout)
L = np.array([[1.0, 0, 0], [0.5, 1, 0], [-0.25, 0.2, 1]])
Um = np.array([[4.0, 1, 2], [0, 3, -1], [0, 0, 2]])
piv = np.array([3, 3, 3], np.int32)
perm = np.arange(3)
for i, p in enumerate(piv):
    perm[i], perm[p - 1] = perm[p - 1], perm[i]
P = np.eye(3)[perm].T
Amat = P @ L @ Um
LU = np.tril(L, -1) + Um
p_, l_, u_ = ops.lu_unpack(Tensor(LU), Tensor(piv))
close(p_, P)
close(l_, L)
close(u_, Um)
bb = rng.standard_normal((3, 2))
close(ops.lu_solve(Tensor(bb), Tensor(LU), Tensor(piv)), np.linalg.solve(Amat, bb), rtol=1e-12)
# geqrf/orgqr/ormqr: Q R reproduces the input; Q^T Q = I
Mq = rng.standard_normal((4, 3))
yq, tau = ops.geqrf(Tensor(Mq))
qq = ops.orgqr(yq, tau)
assert qq.shape == (4, 3)
close(ops.matmul(qq, ops.triu(yq[:3])), Mq, rtol=1e-10, atol=1e-12)
close(ops.matmul(qq.T, qq), np.eye(3), atol=1e-12)
oth = rng.standard_normal((4, 2))
full_q = ops.ormqr(yq, tau, Tensor(np.eye(4)))
close(ops.ormqr(yq, tau, Tensor(oth), transpose=True), full_q.asnumpy().T @ oth, rtol=1e-10, atol=1e-12)
close(full_q[:, :3], qq, atol=1e-12)

# In a graph-mode function the LAPACK-backed ops send the body to Python (their values decide
# the result), the composed ones compile.
@ms.jit
def compiled(a):
    return ops.det(a) + ops.trapz(a).sum()


close(compiled(Tensor(A)), np.linalg.det(A) + np.trapz(A).sum(), rtol=1e-12)

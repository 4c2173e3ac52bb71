"""mindspore.ops behaviours that MindSpore's own docstrings document and gradstep got wrong or lacked:
bucketize's `right`, bincount's float32, isreal of complex values, nanmedian / nanmean, eps, eq,
dot's contraction, lstsq's argument order, arange's inferred dtype, atleast_nd tuples, hann_window,
view_as_real, einsum's sublist form, cholesky_solve, iou, dyn_shape, channel_shuffle,
cumulative_logsumexp's exclusive start, adaptive_max_pool1d/3d, affine_grid, fractional max pooling,
conv3d_transpose, deformable_conv2d, ctc_greedy_decoder."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, fd_grad, raises

vals = Tensor(np.array([[1.0, 3.0, 4.0], [5.0, 9.0, 0.5]]))
bounds = [1.0, 3.0, 5.0, 9.0]
close(ops.bucketize(vals, bounds), [[0, 1, 2], [2, 3, 0]])  # boundaries[i-1] < x <= boundaries[i]
close(ops.bucketize(vals, bounds, right=True), [[1, 2, 2], [3, 4, 0]])  # boundaries[i-1] <= x < boundaries[i]
assert ops.bucketize(vals, bounds).dtype == ms.int32
counts = ops.bincount(Tensor(np.array([3, 1, 1], np.int64)), minlength=5)
assert counts.dtype == ms.float32
close(counts, [0, 2, 0, 1, 0])

close(ops.isreal(Tensor(np.array([1 + 0j, 2 + 1e-3j, -3j]), ms.complex64)), [True, False, False])
close(ops.isreal(Tensor(np.array([1.5, 2.0]))), [True, True])
nan = float("nan")
data = np.array([[4.0, nan, 1.0, 7.0], [nan, nan, nan, nan], [2.0, 8.0, nan, 3.0]])
med, where = ops.nanmedian(Tensor(data), axis=1)
close(med, [4.0, nan, 3.0])  # the lower median of what is not NaN
close(where, [0, 0, 3])
med0, _ = ops.nanmedian(Tensor(data), axis=0, keepdims=True)
assert med0.shape == (1, 4)
close(ops.nanmean(Tensor(data), axis=1), [4.0, nan, 13.0 / 3])
close(ops.nanmean(Tensor(data)), np.nanmean(data))
raises(TypeError, ops.nanmean, Tensor(np.array([1, 2])), match="floating point")

close(ops.eps(Tensor(np.zeros(2, np.float16))), [np.finfo(np.float16).eps] * 2)
close(ops.eps(Tensor(np.zeros(1))), [np.finfo(np.float64).eps], rtol=0, atol=0)
close(ops.eq(Tensor(np.array([1, 2])), 2), [False, True])

a3 = np.arange(6.0).reshape(2, 3)
b3 = np.arange(24.0).reshape(2, 3, 4)
close(ops.dot(Tensor(a3), Tensor(b3)), np.dot(a3, b3))  # (2, 2, 4): input's last axis with other's second-to-last
assert ops.dot(Tensor(a3), Tensor(b3)).shape == (2, 2, 4)
raises(ValueError, ops.dot, Tensor(np.ones(3)), Tensor(np.ones((3, 2))), match="dimension >= 2")

A = np.array([[2.0, 1.0, 5.0], [3.0, 5.0, 1.0], [1.0, 1.0, 1.0], [0.0, 2.0, 1.0]])
B = np.array([[10.0, 5.0], [15.0, 8.0], [7.0, 4.0], [1.0, 1.0]])
close(ops.lstsq(Tensor(A), Tensor(B)), np.linalg.lstsq(A, B, rcond=None)[0], rtol=1e-10)
raises(ValueError, ops.lstsq, Tensor(B[:, 0]), Tensor(A), match="dimension of 'input' must be 2")

assert ops.arange(5).dtype == ms.int64 and ops.arange(0, 1, 0.25).dtype == ms.float32
assert ops.arange(Tensor(6.0, ms.float64), 1, -1).dtype == ms.float64
assert ops.arange(Tensor(3, ms.int32)).dtype == ms.int64  # start 0 and step 1 are Python ints: int64
ints32 = ops.arange(Tensor(7, ms.int32), Tensor(1, ms.int32), Tensor(-2, ms.int32))
assert ints32.dtype == ms.int32
close(ints32, [7, 5, 3])

outs = ops.atleast_2d([Tensor(1.0), Tensor(np.ones(3))])
assert isinstance(outs, tuple) and [o.shape for o in outs] == [(1, 1), (1, 3)]
assert isinstance(ops.atleast_3d((Tensor(1.0),)), tuple)
w = ops.hann_window(6)
assert w.dtype == ms.float64
close(w, 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(6) / 6))
close(ops.hann_window(5, periodic=False, dtype=ms.float32), np.hanning(5), rtol=1e-6, atol=1e-7)
close(ops.view_as_real(Tensor(np.array([1 + 2j, -3j]), ms.complex64)), [[1, 2], [0, -3]])
raises(TypeError, ops.view_as_real, Tensor(np.ones(2)), match="must be complex")

p, q = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
close(ops.einsum(Tensor(p), [0, 1], Tensor(q), [1, 2], [0, 2]), p @ q)
close(ops.einsum(Tensor(p), [Ellipsis, 1], [Ellipsis]), p.sum(-1))

L = np.array([[2.0, 0, 0], [4.0, 1, 0], [-1.0, 1, 2]])
rhs = np.arange(6.0).reshape(3, 2)
close(ops.cholesky_solve(Tensor(rhs), Tensor(L)), np.linalg.solve(L @ L.T, rhs), rtol=1e-10)
close(ops.cholesky_solve(Tensor(rhs), Tensor(L.T), upper=True), np.linalg.solve(L @ L.T, rhs), rtol=1e-10)

anchors = Tensor(np.array([[0.0, 0.0, 9.0, 9.0], [20.0, 20.0, 29.0, 29.0]], np.float32))
gts = Tensor(np.array([[5.0, 5.0, 14.0, 14.0]], np.float32))
close(ops.iou(anchors, gts), [[25.0 / 175.0, 0.0]])  # pixel boxes: a 10 x 10 box is 0..9
close(ops.iou(anchors, gts, "iof"), [[25.0 / 100.0, 0.0]])
raises(KeyError, ops.iou, anchors, gts, "giou", match="'iou' or 'iof'")
raises(ValueError, ops.iou, Tensor(np.ones((2, 3))), gts, match="[N, 4]")

shape = ops.dyn_shape(Tensor(np.ones((3, 2, 1))))
assert shape.dtype == ms.int32
close(shape, [3, 2, 1])
ch = np.arange(2 * 6 * 1 * 1).reshape(2, 6, 1, 1)
close(ops.channel_shuffle(Tensor(ch), 3), ch[:, [0, 2, 4, 1, 3, 5]])
raises(ValueError, ops.channel_shuffle, Tensor(ch), 4, match="divisible")

ex = ops.cumulative_logsumexp(Tensor(np.array([0.0, 1.0], np.float32)), 0, exclusive=True)
close(ex, [np.finfo(np.float32).min, 0.0])

seq = Tensor(np.array([[[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]]]))
close(ops.adaptive_max_pool1d(seq, 3), [[[4.0, 5.0, 9.0]]])  # bins [0,3) [2,5) [4,7)
vol = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(1, 2, 3, 4, 5)
pooled, argmax = ops.adaptive_max_pool3d(Tensor(vol), (1, 2, 2), True)
# depth bin [0, 3), height bins [0, 2) [2, 4), width bins [0, 3) [2, 5): each maximum is the bin's last corner
close(pooled, np.array([[47, 49], [57, 59]])[None, None, None] + 60 * np.arange(2).reshape(1, 2, 1, 1, 1))
close(argmax, np.broadcast_to(np.array([[47, 49], [57, 59]]), (1, 2, 1, 2, 2)))
assert argmax.dtype == ms.int32

theta = np.array([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
grid = ops.affine_grid(Tensor(theta), (1, 1, 2, 3), align_corners=True)
close(grid[0, :, :, 0], [[-1, 0, 1], [-1, 0, 1]])
close(grid[0, :, :, 1], [[-1, -1, -1], [1, 1, 1]])
half = ops.affine_grid(Tensor(theta), (1, 1, 2, 2))
close(half[0, 0], [[-0.5, -0.5], [0.5, -0.5]])
grid3 = ops.affine_grid(Tensor(np.eye(3, 4)[None] * 2), (1, 1, 2, 2, 2), align_corners=True)
assert grid3.shape == (1, 2, 2, 2, 3)
close(grid3[0, 1, 0, 1], [2.0, -2.0, 2.0])  # (x, y, z) doubled
g = lambda t: ops.sum(ops.affine_grid(t, (1, 1, 3, 2)) ** 2)
close(ms.grad(g)(Tensor(theta)), fd_grad(g, theta), rtol=1e-6, atol=1e-8)
raises(ValueError, ops.affine_grid, Tensor(theta), (1, 1, 2, 2, 2), match="theta must be (N, 2, 3)")

img = Tensor(np.arange(25.0).reshape(1, 1, 5, 5))
y, idx = ops.fractional_max_pool2d(img, 2, output_size=(2, 2), return_indices=True,
                                   _random_samples=Tensor(np.array([[[0.8, 0.8]]])))
close(y, [[[[6.0, 9.0], [21.0, 24.0]]]])  # windows start at 0 and 3 on both axes
close(idx, [[[[6, 9], [21, 24]]]])
gy = ms.grad(lambda a: ops.fractional_max_pool2d(a, 2, output_size=(2, 2)).sum())(img).asnumpy()
assert gy.sum() == 4.0 and gy[0, 0, 4, 4] == 1.0
y3 = ops.fractional_max_pool3d(Tensor(np.arange(16.0).reshape(1, 1, 2, 2, 4)), 1, output_ratio=0.5)
assert y3.shape == (1, 1, 1, 1, 2)
raises(ValueError, ops.fractional_max_pool2d, img, 2, match="can not be specified or None")

dout = np.random.default_rng(3).standard_normal((1, 2, 3, 3, 2))
wt = np.random.default_rng(4).standard_normal((2, 3, 2, 2, 2))
up = ops.conv3d_transpose(Tensor(dout), Tensor(wt), pad_mode="pad", padding=(1, 0, 0, 1, 0, 0), stride=2)
assert up.shape == (1, 3, 5, 5, 4)
x0 = Tensor(np.zeros((1, 3, 5, 5, 4)))
adjoint = ms.grad(lambda a: ops.sum(ops.conv3d(a, Tensor(wt), None, 2, "pad", (1, 0, 0, 1, 0, 0)) * Tensor(dout)))(x0)
close(up, adjoint, rtol=1e-10, atol=1e-12)  # the transposed convolution is conv3d's adjoint
assert ops.conv3d_transpose(Tensor(dout), Tensor(wt), pad_mode="same", stride=2).shape == (1, 3, 6, 6, 4)

rng = np.random.default_rng(5)
xi = rng.standard_normal((1, 2, 4, 4))
wi = rng.standard_normal((3, 2, 2, 2))
offs = np.zeros((1, 12, 3, 3))
offs[:, 8:] = 1.0  # no offsets, unit mask: a plain convolution
close(ops.deformable_conv2d(Tensor(xi), Tensor(wi), Tensor(offs), (2, 2), (1, 1, 1, 1), (0, 0, 0, 0)),
      ops.conv2d(Tensor(xi), Tensor(wi)), rtol=1e-10, atol=1e-12)
offs[:, 8:] = 0.5
close(ops.deformable_conv2d(Tensor(xi), Tensor(wi), Tensor(offs), (2, 2), (1, 1, 1, 1), (0, 0, 0, 0)),
      0.5 * ops.conv2d(Tensor(xi), Tensor(wi)).asnumpy(), rtol=1e-10, atol=1e-12)
offs[:, 0:4] = 0.3  # every tap 0.3 pixel right and a quarter pixel down (off the bilinear kinks)
offs[:, 4:8] = 0.25
f = lambda o: ops.sum(ops.deformable_conv2d(Tensor(xi), Tensor(wi), o, (2, 2), (1, 1, 1, 1), (0, 0, 0, 0)) ** 2)
close(ms.grad(f)(Tensor(offs)), fd_grad(f, offs), rtol=1e-5, atol=1e-7)
raises(ValueError, ops.deformable_conv2d, Tensor(xi), Tensor(wi), Tensor(offs[:, :9]), (2, 2), (1, 1, 1, 1),
       (0, 0, 0, 0), match="'offsets' must have shape")

logits = Tensor(np.array([[[0.1, 0.9, 0.0], [0.2, 0.1, 0.7]],
                          [[0.1, 0.8, 0.1], [0.6, 0.2, 0.2]],
                          [[0.0, 0.1, 0.9], [0.1, 0.3, 0.6]]], np.float32))
ind, val, dense, logp = ops.ctc_greedy_decoder(logits, Tensor(np.array([3, 2], np.int32)))
close(ind, [[0, 0], [1, 0]])  # sample 0: 1 1 blank -> [1]; sample 1: blank 0 -> [0]
close(val, [1, 0])
close(dense, [2, 1])
close(logp, [[-2.6], [-1.3]], rtol=1e-6)
_, val2, dense2, _ = ops.ctc_greedy_decoder(logits, Tensor(np.array([3, 2], np.int32)), merge_repeated=False)
close(val2, [1, 1, 0])
close(dense2, [2, 2])
raises(ValueError, ops.ctc_greedy_decoder, logits, Tensor(np.array([4, 1], np.int32)), match="sequence_length")

# primitive classes over the same functions
close(ops.Bucketize(boundaries=[1.0, 3.0, 5.0])(Tensor(np.array([3, 6, 0], np.int32))), [2, 3, 0])
raises(TypeError, ops.Bucketize, [1, 2], match="'boundaries[0]' must be a float")
close(ops.Lcm()(Tensor(np.array([4, 6])), Tensor(np.array([6, 10]))), [12, 30])
pts = np.array([[[0.0, 0.0], [3.0, 4.0]]])
close(ops.Cdist(p=1.0)(Tensor(pts), Tensor(pts)), [[[0.0, 7.0], [7.0, 0.0]]])
t3 = np.arange(1.0, 9.0).reshape(2, 2, 2)
close(ops.LpNorm(axis=[0, 2], p=3, keep_dims=True)(Tensor(t3)), np.cbrt((t3 ** 3).sum(axis=(0, 2), keepdims=True)))
close(ops.LpNorm(axis=1, epsilon=0.5)(Tensor(np.zeros((2, 2)))), [0.5, 0.5])
seq = np.array([0.5, -1.0, 2.0])
close(ops.CumulativeLogsumexp(reverse=True)(Tensor(seq), Tensor(0)),
      np.log(np.cumsum(np.exp(seq[::-1])))[::-1], rtol=1e-12)
close(ops.AccumulateNV2()((Tensor(seq), Tensor(seq))), 2 * seq)

# eig: complex output; real input goes through the real geev (vectors of unit length)
w, v = ops.eig(Tensor(np.array([[1.0, 0.0], [0.0, 2.0]], np.float32)))
assert w.dtype == ms.complex64 and v.dtype == ms.complex64
close(w, np.array([1, 2], np.complex64))
close(v, np.eye(2, dtype=np.complex64))
rot = np.array([[0.0, -1.0], [1.0, 0.0]])
w, v = ops.eig(Tensor(rot))
assert w.dtype == ms.complex128
close(np.sort_complex(w.asnumpy()), [-1j, 1j], atol=1e-12)
close(rot @ v.asnumpy(), v.asnumpy() * w.asnumpy(), atol=1e-12)
close(np.linalg.norm(v.asnumpy(), axis=0), [1.0, 1.0], rtol=1e-12)
raises(TypeError, ops.eig, Tensor(np.eye(2, dtype=np.int32)), match="dtype of 'A'")
raises(ValueError, ops.eig, Tensor(np.ones((2, 3), np.float32)), match="square")

# random ops: output shapes broadcast `shape` with the distribution parameters
assert ops.uniform((3, 1, 2), Tensor(np.array([[3, 4], [5, 6]], np.float32)),
                   Tensor(np.array([8.0, 10.0], np.float32)), seed=5).shape == (3, 2, 2)
u = ops.uniform((400,), Tensor(np.float32(2.0)), Tensor(np.float32(3.0)), seed=1).asnumpy()
assert u.min() >= 2.0 and u.max() < 3.0
assert ops.poisson((4, 1), Tensor(np.array([5.0, 10.0], np.float32)), seed=5).shape == (4, 2)
lap = ops.standard_laplace((4000,), seed=3)
assert lap.shape == (4000,) and lap.dtype == ms.float32
assert abs(float(np.abs(lap.asnumpy()).mean()) - 1.0) < 0.1  # E|X| = lambda = 1
raises(ValueError, ops.standard_laplace, (2, 0), match="must be positive")
mean, lam = Tensor(np.float32(1.0)), Tensor(np.array([0.5, 2.0], np.float32))
assert ops.laplace((3, 1), mean, lam, seed=5).shape == (3, 2)
g = ms.grad(lambda m: ops.laplace((5,), m, lam[:1], seed=7).sum())(mean)
close(g, 5.0)
raises(TypeError, ops.laplace, (2,), Tensor(1.0, ms.float64), lam, match="float32")

true_cls = Tensor(np.array([[1], [3], [4], [6], [3]], np.int64))
s1, t1, e1 = ops.uniform_candidate_sampler(true_cls, 1, 3, True, 8, 1, remove_accidental_hits=True)
assert s1.dtype == ms.int64 and s1.shape == (3,) and t1.shape == (5, 1) and e1.shape == (3,)
assert len(set(s1.asnumpy().tolist())) == 3 and not set(s1.asnumpy().tolist()) & {1, 3, 4, 6}
assert t1.dtype == ms.float32 and 3 / 8 <= float(t1.asnumpy()[0, 0]) <= 1.0
_, t2, _ = ops.uniform_candidate_sampler(Tensor(np.array([[1]], np.int32)), 1, 4, False, 8, 1)
close(t2, [[0.5]])  # with replacement: num_sampled / range_max
raises(ValueError, ops.uniform_candidate_sampler, true_cls, 1, 5, True, 8, 1, True, match="without repetition")

mask_in = np.zeros((3, 4), bool)
mask_in[0, 1] = mask_in[2, 3] = True
idx, valid = ops.choice_with_mask(Tensor(mask_in), count=4, seed=2)
assert idx.dtype == ms.int32 and idx.shape == (4, 2) and valid.dtype == ms.bool_
close(valid, [True, True, False, False])
assert sorted(map(tuple, idx.asnumpy()[:2].tolist())) == [(0, 1), (2, 3)]
close(idx.asnumpy()[2:], np.zeros((2, 2)))
raises(TypeError, ops.choice_with_mask, Tensor(np.ones(3, np.float32)), match="bool")

# random primitive classes over the same draws
assert ops.StandardLaplace(seed=2)((4, 16)).shape == (4, 16)
assert ops.RandomGamma(seed=3)(Tensor(np.array([3, 1, 2], np.int32)),
                               Tensor(np.array([[3, 4], [5, 6]], np.float32))).shape == (3, 1, 2, 2, 2)
assert ops.Gamma(seed=3)((3, 1, 2), Tensor(np.array([[3, 4], [5, 6]], np.float32)),
                         Tensor(np.array([1.0], np.float32))).shape == (3, 2, 2)
pois = ops.Poisson(seed=5)((4, 1), Tensor(np.array([5.0, 10.0], np.float32)))
assert pois.shape == (4, 2) and pois.dtype == ms.int32
rp = ops.RandomPoisson(seed=1)(Tensor(np.array([2, 3], np.int32)), Tensor(np.array([2, 2], np.int32)))
assert rp.shape == (2, 3, 2) and rp.dtype == ms.int64
tn = ops.TruncatedNormal(seed=1)(Tensor(np.array([50, 40], np.int32)))
assert tn.shape == (50, 40) and np.abs(tn.asnumpy()).max() <= 2
assert ops.NonDeterministicInts(dtype=ms.int32)(Tensor(np.array([2, 2], np.int32))).dtype == ms.int32
raises(TypeError, ops.TruncatedNormal, dtype=ms.int32, match="dtype")
_, t3, e3 = ops.UniformCandidateSampler(1, 3, False, 4, 1)(Tensor(np.array([[1], [3], [4], [6], [3]], np.int32)))
close(t3, np.full((5, 1), 0.75))
close(e3, [0.75, 0.75, 0.75])
raises(ValueError, ops.UniformCandidateSampler, 1, 5, True, 4, match="less than or equal to 'range_max'")
idx, valid = ops.RandomChoiceWithMask(count=3)(Tensor(np.array([False, True, False])))
close(idx, [[1], [0], [0]])
close(valid, [True, False, False])
assert ops.LogUniformCandidateSampler(2, 5, True, 5)(Tensor(np.array([[1, 7], [0, 4], [3, 3]])))[1].shape == (3, 2)

# linear algebra primitive classes
mat = np.array([[1, 2], [-4, -5], [2, 1]], np.float32)
s, u, v = ops.Svd(full_matrices=True)(Tensor(mat))
close(s, np.linalg.svd(mat, compute_uv=False), rtol=1e-5)
assert u.shape == (3, 3) and v.shape == (2, 2)
close((u.asnumpy()[:, :2] * s.asnumpy()) @ v.asnumpy().T, mat, atol=1e-5)
q, r = ops.Qr(full_matrices=True)(Tensor(mat))
assert q.shape == (3, 3) and r.shape == (3, 2)
close(q.asnumpy() @ r.asnumpy(), mat, atol=1e-5)
y, tau = ops.Geqrf()(Tensor(np.array([[-2.0, -1.0], [1.0, 2.0]], np.float32)))
close(y, [[2.236068, 1.7888544], [-0.236068, 1.3416407]], rtol=1e-5)
close(tau, [1.8944271, 0.0], rtol=1e-5)

# clip_by_value / clamp / clip over a list or tuple of Tensors; check_valid
xs = np.array([[1., 25., 5., 7.], [4., 11., 6., 21.]], np.float32)
want = np.clip(xs, 5, 20)
for fn in (ops.clip_by_value, ops.clamp, ops.clip):
    out = fn([Tensor(xs), Tensor(xs)], 5, 20)
    assert isinstance(out, list) and len(out) == 2
    close(out[1], want)
    out = fn((Tensor(xs),), Tensor(5.0, ms.float32), None)
    assert isinstance(out, tuple)
    close(out[0], np.maximum(xs, 5))
    close(fn(Tensor(xs), 5, 20), want)
    raises(ValueError, fn, [Tensor(xs)], None, None, match="must not be None")
    raises(TypeError, fn, [xs], 1, 2, match="list or tuple of Tensors")
close(ms.grad(lambda t: ops.clamp([t, t * 2], 0.0, 1.0)[1].sum())(Tensor(np.array([0.2, 0.7], np.float32))),
      [2.0, 0.0])
boxes = Tensor(np.linspace(0, 6, 12).reshape(3, 4), ms.float32)
close(ops.check_valid(boxes, Tensor(np.array([2, 1, 3]), ms.float32)), [True, False, False])
close(ops.check_valid(Tensor(np.array([[-0.5, 0, 1, 1], [0, 0, 2, 5]], np.float32)),
                      Tensor(np.array([2, 1, 3], np.float32))), [False, True])
raises(ValueError, ops.check_valid, boxes[:, :3], Tensor(np.array([2, 1, 3]), ms.float32), match="shape")

# ops.div rounding modes (and Tensor.div / ops.divide through it)
ia, ib = Tensor(np.array([7, -7, 5], np.int32)), Tensor(np.array([2, 2, -3], np.int32))
fl = ops.div(ia, ib, rounding_mode="floor")
assert fl.dtype == ms.int32
close(fl, [3, -4, -2])
tr = ops.div(ia, ib, rounding_mode="trunc")
assert tr.dtype == ms.int32
close(tr, [3, -3, -1])
close(ops.div(ia, ib), [3.5, -3.5, -5 / 3])
fa = Tensor(np.array([7.5, -7.5], np.float32))
close(ops.divide(fa, 2.0, rounding_mode="floor"), [3.0, -4.0])
close(fa.div(2.0, rounding_mode="trunc"), [3.0, -3.0])
raises(ValueError, ops.div, ia, ib, rounding_mode="round", match="None, 'floor' or 'trunc'")

# math primitives
close(ops.Histogram(bins=4, min=0.0, max=3.0)(Tensor(np.array([1.0, 2.0, 1.0], np.float32))), [0, 2, 1, 0])
raises(TypeError, ops.Histogram, 4, 0, 3.0, match="'min' must be a float")
hfw = ops.HistogramFixedWidth(5)(Tensor(np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15], np.float16)),
                                Tensor(np.array([0.0, 5.0], np.float16)))
assert hfw.dtype == ms.int32
close(hfw, [2, 1, 1, 0, 2])
close(ops.Hypot()(Tensor(np.array([3.0, 5.0])), Tensor(np.array([4.0, 12.0]))), [5.0, 13.0])
close(ops.Heaviside()(Tensor(np.array([-1.5, 0.0, 2.0])), Tensor(np.array([0.5]))), [0.0, 0.5, 1.0])
mnn = ops.MulNoNan()(Tensor(np.array([[-1.0, 6.0, np.inf], [np.nan, -7.0, 4.0]], np.float32)),
                     Tensor(np.array([[-1.0, 4.0, 0], [0, -3.0, 1.0]], np.float32)))
close(mnn, [[1.0, 24.0, 0.0], [0.0, 21.0, 4.0]])
close(ops.MulNoNan()(Tensor(np.array([np.nan, 2.0], np.float32)), Tensor(0, ms.float32)), [0.0, 0.0])
td = ops.TruncateDiv()(Tensor(np.array([2, 4, -1], np.int32)), Tensor(np.array([3, 3, 3], np.int32)))
assert td.dtype == ms.int32
close(td, [0, 1, 0])
close(ops.TruncateMod()(Tensor(np.array([2, 4, -1], np.int32)), Tensor(np.array([3, 3, 3], np.int32))), [2, 1, -1])
close(ops.Quantile()(Tensor(np.array([0.07, -0.5446, 0.9214], np.float32)), Tensor(np.array([0, 0.5, 1], np.float32))),
      [-0.5446, 0.07, 0.9214])
close(ops.Quantile(dim=1, keep_dims=True, ignore_nan=True)(Tensor(np.array([[1.0, np.nan, 3.0]])), 0.5), [[2.0]])
close(ops.ApproximateEqual(2.)(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([2, 3, 6], np.float32))),
      [True, True, False])
raises(TypeError, ops.ApproximateEqual, 2, match="'tolerance' must be a float")
ec = ops.EqualCount()(Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([1, 2, 4], np.int32)))
assert ec.dtype == ms.int32
close(ec, [2])
close(ops.FloatStatus()(Tensor(np.array([np.nan, 1.0, -np.inf], np.float32))), [1.0])
close(ops.FloatStatus()(Tensor(np.array([[1.0, 2.0]], np.float16))), [0.0])
raises(TypeError, ops.FloatStatus(), Tensor(np.array([1], np.int32)), match="float16, float32 or float64")

# Bessel / bitwise primitive classes, SquareSumAll, NMSWithMask
xb = Tensor(np.array([0.24, 0.83, 0.31, 0.09], np.float32))
close(ops.BesselI0()(xb), [1.0144521, 1.1797839, 1.0241698, 1.0020262], rtol=1e-5)
close(ops.BesselI1e()(xb), [0.09507662, 0.19699717, 0.11505538, 0.04116856], rtol=1e-5)
close(ops.BesselK0()(xb), ops.bessel_k0(xb))
bx = Tensor(np.array([0, 0, 1, -1, 1, 1, 1], np.int16))
by = Tensor(np.array([0, 1, 1, -1, -1, 2, 3], np.int16))
close(ops.BitwiseAnd()(bx, by), [0, 0, 1, -1, 1, 0, 1])
close(ops.BitwiseOr()(bx, by), [0, 1, 1, -1, -1, 3, 3])
close(ops.BitwiseXor()(bx, by), [0, 1, 0, 0, -2, 3, 2])
sx, sy = ops.SquareSumAll()(Tensor(np.array([0, 0, 2, 0], np.float32)), Tensor(np.array([0, 0, 2, 4], np.float32)))
assert sx.shape == () and sx.dtype == ms.float32
close(sx, 4.0)
close(sy, 20.0)
assert repr(sy) == "Tensor(shape=[], dtype=Float32, value= 20)"  # a 0-D float prints as MindSpore's does
raises(ValueError, ops.SquareSumAll(), Tensor(np.ones(2, np.float32)), Tensor(np.ones(3, np.float32)), match="shapes")
bbox = np.array([[100.0, 100.0, 50.0, 68.0, 0.63], [150.0, 75.0, 165.0, 115.0, 0.55],
                 [12.0, 190.0, 288.0, 200.0, 0.9], [28.0, 130.0, 106.0, 172.0, 0.3]])
bbox[:, 2] += bbox[:, 0]
bbox[:, 3] += bbox[:, 1]
out_boxes, out_idx, out_mask = ops.NMSWithMask(0.1)(Tensor(bbox, ms.float32))
close(out_boxes, bbox[[2, 0, 1, 3]])  # sorted by descending score
assert out_idx.dtype == ms.int32 and out_mask.dtype == ms.bool_
close(out_idx.asnumpy()[out_mask.asnumpy()], [0, 1, 2])  # the lowest box overlaps the best one (IOU 0.186)
_, _, loose = ops.NMSWithMask(0.2)(Tensor(bbox, ms.float32))
close(loose, [True, True, True, True])
raises(TypeError, ops.NMSWithMask, 1, match="'iou_threshold' must be a float")
close(ops.Inv()(Tensor(np.array([0.25, 0.4], np.float32))), [4.0, 2.5])
close(ops.Invert()(Tensor(np.array([25, 4], np.int16))), [-26, -5])
close(ops.Eps()(Tensor(np.array([4.0, 1.0], np.float32))), [1.1920929e-07, 1.1920929e-07], rtol=1e-6)
mats = np.array([[[-0.710504, -1.1207525], [-1.7651395, -1.7576632]],
                 [[0.52412605, 1.9070215], [1.3384849, 1.4274558]]], np.float32)
close(ops.MatrixInverse()(Tensor(mats)), np.linalg.inv(mats), rtol=1e-5)
close(ops.MatrixInverse(adjoint=True)(Tensor(mats)), np.linalg.inv(np.swapaxes(mats, -1, -2)), rtol=1e-5)
rot2 = np.array([[[0, 1], [-1, 0]], [[1, 0], [0, -1]]], np.float32)
close(ops.MatrixPower(n=2)(Tensor(rot2)), rot2 @ rot2)
close(ops.MatrixPower(n=-1)(Tensor(rot2)), np.linalg.inv(rot2))
raises(ValueError, ops.MatrixPower(n=2), Tensor(rot2[0]), match="3-D")
ga, gx = Tensor(np.array([2.0, 4.0], np.float32)), Tensor(np.array([2.0, 3.0], np.float32))
close(ops.Igamma()(ga, gx), [0.593994, 0.35276785], rtol=1e-5)
close(ops.Igammac()(ga, gx), [0.40600586, 0.6472318], rtol=1e-5)
ca = ops.ComplexAbs()(Tensor(np.array([3 + 4j, 1j], np.complex64)))
assert ca.dtype == ms.float32
close(ca, [5.0, 1.0])
raises(TypeError, ops.ComplexAbs(), Tensor(np.ones(2, np.float32)), match="complex64 or complex128")
sup, mid, sub = (np.array([[1.0, 2.0, 3.0]], np.float32), np.array([[4.0, 5.0, 6.0]], np.float32),
                 np.array([[7.0, 8.0, 9.0]], np.float32))
rhs = np.arange(6, dtype=np.float32).reshape(3, 2)
dense = np.diag(mid[0]) + np.diag(sup[0, :2], 1) + np.diag(sub[0, 1:], -1)
close(ops.TridiagonalMatMul()(Tensor(sup), Tensor(mid), Tensor(sub), Tensor(rhs)), dense @ rhs)
g_sup = ms.grad(lambda s: ops.TridiagonalMatMul()(s, Tensor(mid), Tensor(sub), Tensor(rhs)).sum())(Tensor(sup))
close(g_sup, [[rhs[1].sum(), rhs[2].sum(), 0.0]])
raises(ValueError, ops.TridiagonalMatMul(), Tensor(sup), Tensor(mid), Tensor(sub), Tensor(rhs[:2]), match="'rhs'")

# linear algebra / gamma primitives
a3 = np.array([[2.5, 3.1, 3.5], [4.7, 1.9, 0.2], [1.1, 3.6, 2.0]], np.float32)
lu, p = ops.Lu(output_idx_type=ms.int32)(Tensor(a3))
assert p.dtype == ms.int32
close(p, [1, 2, 0])
lun = lu.asnumpy()
close((np.tril(lun, -1) + np.eye(3)) @ np.triu(lun), a3[p.asnumpy()], atol=1e-5)
close(ops.MatrixSolve()(Tensor(np.array([[1.0, 4.0], [2.0, 7.0]], np.float32)),
                        Tensor(np.array([[1.0], [3.0]], np.float32))), [[5.0], [-1.0]], rtol=1e-5)
lsA = np.array([[3, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1], [0, 1, 0, 2]], np.float64)
lsb = np.array([[4.0], [2.0], [4.0], [2.0], [1.0]])
close(ops.MatrixSolveLs()(Tensor(lsA), Tensor(lsb), Tensor(0.0, ms.float64)), np.linalg.lstsq(lsA, lsb, rcond=None)[0])
close(ops.MatrixSolveLs()(Tensor(lsA), Tensor(lsb), Tensor(0.5, ms.float64)),
      np.linalg.solve(lsA.T @ lsA + 0.5 * np.eye(4), lsA.T @ lsb))
close(ops.MatrixSolveLs(fast=False)(Tensor(lsA), Tensor(lsb), Tensor(0.5, ms.float64)),
      np.linalg.lstsq(lsA, lsb, rcond=None)[0])
close(ops.Lgamma()(Tensor(np.array([0.5, 3.2], np.float32))), [0.5723649, 0.8854049], rtol=1e-5)
close(ops.Polygamma()(Tensor(np.array(1), ms.int64), Tensor(np.array([1.0], np.float32))), [1.644934], rtol=1e-5)
close(ops.LuSolve()(Tensor(np.array([[1], [3], [3]], np.float32)),
                    Tensor(np.array([[2, 1, 1], [0.5, 1, 1.5], [0.5, 0, 2.5]], np.float32)),
                    Tensor(np.array([2, 2, 3], np.int32))), [[1.9], [-1.4], [0.6]], rtol=1e-5)
v3a, v3b = np.array([1.0, 0.0, 0.0], np.float32), np.array([0.0, 1.0, 0.0], np.float32)
close(ops.Cross()(Tensor(v3a), Tensor(v3b)), [0.0, 0.0, 1.0])
close(ops.Cross(dim=0)(Tensor(np.stack([v3a, v3a], 1)), Tensor(np.stack([v3b, v3b], 1))), [[0, 0], [0, 0], [1, 1]])
med, med_idx = ops.Median(axis=0)(Tensor(np.array([[5, 1, 2], [3, 5, 7], [1, 6, 4]], np.int64)))
close(med, [3, 5, 4])
close(med_idx, [1, 1, 2])
gmed, gidx = ops.Median(global_median=True)(Tensor(np.array([[1, 7, 6], [5, 1, 3], [9, 17, 1]], np.int32)))
assert gmed.shape == () and gmed.dtype == ms.int32 and gidx.dtype == ms.int64
close(gmed, 5)
from mindspore.ops.operations.math_ops import SparseSegmentMean  # noqa: E402
close(SparseSegmentMean()(Tensor(np.array([[0, 1, 2], [1, 2, 3], [3, 6, 7]], np.float32)),
                          Tensor(np.array([0, 1, 2], np.int32)), Tensor(np.array([1, 2, 2], np.int32))),
      [[0, 0, 0], [0, 1, 2], [2, 4, 5]])
close(ops.Zeta()(Tensor(np.array([10.0], np.float32)), Tensor(np.array([1.0], np.float32))), [1.0009946], rtol=1e-5)
close(ops.Renorm(p=1, dim=0, maxnorm=5.)(Tensor(np.array([[1, 1, 1], [2, 2, 2], [3, 3, 3]], np.float32))),
      [[1, 1, 1], [5 / 3] * 3, [5 / 3] * 3], rtol=1e-5)
splits, dense = ops.RaggedRange(Tsplits=ms.int64)(Tensor(np.array([2, 5, 8], np.int32)),
                                                  Tensor(np.array([3, 5, 12], np.int32)),
                                                  Tensor(np.array([1, 1, 1], np.int32)))
assert splits.dtype == ms.int64 and dense.dtype == ms.int32
close(splits, [0, 1, 1, 5])
close(dense, [2, 8, 9, 10, 11])
_, fdense = ops.RaggedRange(Tsplits=ms.int32)(Tensor(np.array([0.0, 1.0], np.float32)),
                                              Tensor(np.array([1.0, 0.0], np.float32)),
                                              Tensor(np.array([0.5, -0.5], np.float32)))
close(fdense, [0.0, 0.5, 1.0, 0.5])
raises(ValueError, ops.RaggedRange(Tsplits=ms.int32), Tensor(np.array([0])), Tensor(np.array([1])),
       Tensor(np.array([0])), match="must not be 0")
chol = np.array([[2, 0, 0], [4, 1, 0], [-1, 1, 2]], np.float32)
close(ops.CholeskySolve()(Tensor(np.eye(3, dtype=np.float32)), Tensor(chol)), np.linalg.inv(chol @ chol.T), rtol=1e-5)
pol = ops.Polar()(Tensor(np.array([1.0, 2.0])), Tensor(np.array([3.0, 4.0])))
close(pol, np.array([1.0, 2.0]) * np.exp(1j * np.array([3.0, 4.0])))
ti = ops.TrilIndices(4, 3, -1, ms.int64)()
assert ti.dtype == ms.int64
close(ti, [[1, 2, 2, 3, 3, 3], [0, 0, 1, 0, 1, 2]])
close(ops.TriuIndices(5, 4, 2, ms.int64)(), [[0, 0, 1], [2, 3, 3]])
tri = np.array([[3, 9, 9, 9], [2, 1, 9, 9], [1, 0, 1, 9], [1, 1, 1, 1]], np.float32)  # the 9s are not read
trhs = np.array([[1, 0], [2, 2], [1, 5], [0, 3]], np.float32)
close(ops.MatrixTriangularSolve()(Tensor(tri), Tensor(trhs)), np.linalg.solve(np.tril(tri), trhs), rtol=1e-5)
close(ops.MatrixTriangularSolve(lower=False, adjoint=True)(Tensor(tri), Tensor(trhs)),
      np.linalg.solve(np.triu(tri).T, trhs), rtol=1e-5)
cab = ops.CompareAndBitpack()(Tensor(np.array([[1, 2, 3, 4, 5, 6, 7, 8], [9] * 8], np.float32)), Tensor(6, ms.float32))
assert cab.dtype == ms.uint8
close(cab, [[3], [255]])
close(ops.Fmin()(Tensor(np.array([1.0, np.nan], np.float32)), Tensor(np.array([4.0, 2.0], np.float32))), [1.0, 2.0])
close(ops.Fmax()(Tensor(np.array([1.0, np.nan], np.float32)), Tensor(np.array([4.0, 2.0], np.float32))), [4.0, 2.0])
sig = np.random.default_rng(0).random((2, 300)).astype(np.float32)
spec = ops.STFT(64, 16, 64, False, True, True)(Tensor(sig), Tensor(np.hanning(64).astype(np.float32)))
assert spec.shape == (2, 33, 1 + (300 - 64) // 16)
close(spec.asnumpy()[:, :, 0], np.fft.rfft(sig[:, :64] * np.hanning(64), axis=-1), rtol=1e-3, atol=1e-4)

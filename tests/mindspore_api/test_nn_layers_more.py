"""nn RReLU, Softmax2d, LRN, OneHot, Range, ChannelShuffle, ClipByNorm, BiDense, L1Regularizer,
EmbeddingLookup, TimeDistributed, MicroBatchInterleaved and SparseTensorDenseMatmul: values against
NumPy, gradients against finite differences, MindSpore's errors."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import check_grad, close, raises

rng = np.random.default_rng(5)
x = rng.standard_normal((2, 4, 3, 3))

# RReLU: negatives scaled by a slope in [lower, upper], drawn anew per element and call.
r = nn.RReLU(0.1, 0.3)(Tensor(x)).asnumpy()
neg = x < 0
assert np.array_equal(r[~neg], x[~neg])
slopes = r[neg] / x[neg]
assert slopes.min() >= 0.1 - 1e-12 and slopes.max() <= 0.3 + 1e-12 and slopes.std() > 0.01, slopes
raises(ValueError, nn.RReLU, 0.5, 0.2, match="'upper' must be greater than or equal to 'lower'")
raises(TypeError, nn.RReLU(), Tensor(np.array([1, -1], np.int32)), match="dtype of 'x' must be float")

e = np.exp(x)
close(nn.Softmax2d()(Tensor(x)), e / e.sum(1, keepdims=True))
close(nn.Softmax2d()(Tensor(x[0])), e[0] / e[0].sum(0, keepdims=True))
raises(ValueError, nn.Softmax2d(), Tensor(x[0, 0, 0]), match="3-D or 4-D")

# LRN across channels: x / (bias + alpha * sum of squares over c-r..c+r)^beta.
sq = np.pad(x * x, ((0, 0), (1, 1), (0, 0), (0, 0)))
window = sq[:, :-2] + sq[:, 1:-1] + sq[:, 2:]
close(nn.LRN(1, 2.0, 0.5, 0.75)(Tensor(x)), x / (2.0 + 0.5 * window) ** 0.75)
check_grad(lambda t: (nn.LRN(1, 1.0, 1.0, 0.5)(t) * Tensor(x[:1, :, :2, :2])).sum(), x[:1, :, :2, :2] * 0.5)
close(nn.LRN()(Tensor(np.array([[[[0.1], [0.2]], [[0.3], [0.4]]]]), ms.float32)),   # MindSpore's example
      [[[[0.09534626], [0.1825742]], [[0.2860388], [0.3651484]]]], rtol=1e-6)
raises(ValueError, nn.LRN, norm_region="WITHIN", match="'norm_region' must be 'ACROSS_CHANNELS'")

labels = Tensor(np.array([[1, 3], [0, 5]]), ms.int32)
hot = nn.OneHot(depth=4, on_value=2.0, off_value=-1.0)(labels)
want = np.where(np.arange(4) == np.array([[1, 3], [0, 5]])[..., None], 2.0, -1.0)
close(hot, want)
assert hot.dtype == ms.float32
close(nn.OneHot(axis=0, depth=4)(Tensor(np.array([1, 3]), ms.int32)), np.eye(4)[[1, 3]].T)
raises(TypeError, nn.OneHot(depth=2), Tensor(np.array([0.5])), match="dtype of 'indices'")

assert nn.Range(5)().asnumpy().tolist() == [0, 1, 2, 3, 4] and nn.Range(5)().dtype == ms.int32
close(nn.Range(1, 3, 0.5)(), [1.0, 1.5, 2.0, 2.5])
assert nn.Range(1, 3, 0.5)().dtype == ms.float32
raises(ValueError, nn.Range, 1, 5, 0, match="'delta' can not be zero")

c = np.arange(12.0).reshape(1, 6, 2)
close(nn.ChannelShuffle(3)(Tensor(c)), c[:, [0, 2, 4, 1, 3, 5]])
sixteen = np.arange(16).reshape(1, 4, 2, 2)   # MindSpore's example: channels 0, 2, 1, 3
close(nn.ChannelShuffle(2)(Tensor(sixteen, ms.int32)), sixteen[:, [0, 2, 1, 3]])
raises(ValueError, nn.ChannelShuffle(4), Tensor(c), match="divisible by 'groups'")

v = rng.standard_normal((3, 4))
close(nn.ClipByNorm()(Tensor(v), Tensor(1.0)), v / np.linalg.norm(v), rtol=1e-5)
close(nn.ClipByNorm()(Tensor(v), Tensor(100.0)), v, rtol=1e-5)
rows = np.linalg.norm(v, axis=1, keepdims=True)
close(nn.ClipByNorm(axis=1)(Tensor(v), Tensor(1.5)), v * 1.5 / np.maximum(rows, 1.5), rtol=1e-5)

bi = nn.BiDense(3, 2, 4)
assert bi.weight.shape == (4, 3, 2) and bi.bias.shape == (4,)
a1, a2 = rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal((5, 2)).astype(np.float32)
wt, bs = bi.weight.asnumpy(), bi.bias.asnumpy()
close(bi(Tensor(a1), Tensor(a2)), np.einsum("ni,oij,nj->no", a1, wt, a2) + bs, rtol=1e-4, atol=1e-5)
assert np.abs(wt).max() <= 1 / np.sqrt(3)
close(bi(Tensor(a1.reshape(5, 1, 3)), Tensor(a2.reshape(5, 1, 2))).shape, (5, 1, 4))
raises(ValueError, bi, Tensor(a2), Tensor(a2), match="(*, 3) and (*, 2)")

close(nn.L1Regularizer(0.5)(Tensor(v)), 0.5 * np.abs(v).sum())
raises(ValueError, nn.L1Regularizer, -1.0, match="'scale' must be a positive")

table = nn.EmbeddingLookup(6, 3, max_norm=1.0)
ids = np.array([[0, 5], [2, 2]])
rows = table.embedding_table.asnumpy()[ids]
norms = np.linalg.norm(rows, axis=-1, keepdims=True)
close(table(Tensor(ids, ms.int32)), rows * np.minimum(1.0, 1.0 / norms), rtol=1e-5)
raises(ValueError, table, Tensor(np.array([6]), ms.int32), match="'indices' must be in [0, 6)")

dense = nn.Dense(3, 2)
seq = rng.standard_normal((4, 5, 3)).astype(np.float32)
want = seq @ dense.weight.asnumpy().T + dense.bias.asnumpy()
close(nn.TimeDistributed(dense, time_axis=1)(Tensor(seq)), want, rtol=1e-5)
close(nn.TimeDistributed(dense, time_axis=1, reshape_with_axis=0)(Tensor(seq)), want, rtol=1e-5)
close(nn.TimeDistributed(dense, time_axis=0, reshape_with_axis=1)(Tensor(seq)), want, rtol=1e-5)

batch = rng.standard_normal((4, 3)).astype(np.float32)
whole = dense(Tensor(batch)).asnumpy()
close(nn.MicroBatchInterleaved(dense, 2)(Tensor(batch)), whole[:2] + whole[2:], rtol=1e-5)


class SumLoss(nn.Cell):
    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def construct(self, x, scale):
        return (self.layer(x) * scale).sum()


# Uneven pieces (rows i * B // k to (i + 1) * B // k) are fine when the outputs add up: a loss.
five = rng.standard_normal((5, 3)).astype(np.float32)
close(nn.PipelineCell(SumLoss(dense), 3)(Tensor(five), 2.0), 2.0 * dense(Tensor(five)).asnumpy().sum(), rtol=1e-5)
close(nn.MicroBatchInterleaved(SumLoss(dense), 2)(Tensor(five), 1.0), dense(Tensor(five)).asnumpy().sum(), rtol=1e-5)
assert [p.name for p in nn.MicroBatchInterleaved(SumLoss(nn.Dense(3, 2)), 2).trainable_params()] == \
    ["layer.weight", "layer.bias"]   # no prefix of its own (auto_prefix=False)
accumulated = ms.grad(nn.GradAccumulationCell(SumLoss(dense), 2), grad_position=None,
                      weights=dense.trainable_params())(Tensor(five), 1.0)
close(accumulated[1], np.full(2, 5.0))   # d(sum of all outputs) / d bias = the 5 rows
close(accumulated[0], np.tile(five.sum(0), (2, 1)), rtol=1e-5)
raises(ValueError, nn.PipelineCell, dense, 0, match="'micro_size' must be large than 0")
raises(TypeError, nn.MicroBatchInterleaved, dense, 2.0, match="'interleave_num' must be integer")
target = nn.Dense(3, 2)
update = nn.ParameterUpdate(target.weight)
close(update(Tensor(np.arange(6.0).reshape(2, 3), ms.float32)), np.arange(6.0).reshape(2, 3))
close(target.weight.asnumpy(), np.arange(6.0).reshape(2, 3))
raises(TypeError, nn.ParameterUpdate, Tensor(np.ones(2)), match="'param' must be 'Parameter'")


class Three(nn.Cell):
    def construct(self, a, b, c):
        return a * b + c


close(nn.VirtualDatasetCellTriple(Three())(Tensor(2.0), Tensor(3.0), Tensor(1.0)), 7.0)

spmm = nn.SparseTensorDenseMatmul()
ind = Tensor(np.array([[0, 1], [1, 2], [0, 0]]), ms.int64)
vals = np.array([2.0, -1.0, 3.0])
d = rng.standard_normal((3, 2))
m = np.zeros((2, 3))
m[0, 1], m[1, 2], m[0, 0] = vals
close(spmm(ind, Tensor(vals), (2, 3), Tensor(d)), m @ d)
close(nn.SparseTensorDenseMatmul(True, True)(ind, Tensor(vals), (2, 3), Tensor(d.T.copy()[:, :2])), m.T @ d[:2])
check_grad(lambda t: (spmm(ind, t, (2, 3), Tensor(d)) ** 2).sum(), vals)
raises(ValueError, spmm, ind, Tensor(vals), (2, 2), Tensor(d), match="'indices' must lie inside")

# MultiFieldEmbeddingLookup: per (example, field) the value-weighted embeddings of its ids, combined.
ids = np.array([[2, 4, 5, 0], [1, 3, 3, 2]])
vals = np.array([[1.0, 2.0, 0.5, 1.0], [1.0, 1.0, 3.0, 2.0]])
fields = np.array([[0, 0, 2, 2], [1, 1, 0, 1]])
for op, reduce in (("SUM", np.sum), ("MEAN", np.mean), ("MAX", np.max)):
    lookup = nn.MultiFieldEmbeddingLookup(6, 2, 3, operator=op)
    got = lookup(Tensor(ids, ms.int32), Tensor(vals, ms.float32), Tensor(fields, ms.int32))
    emb = lookup.embedding_table.asnumpy()[ids] * vals[..., None]
    want = np.zeros((2, 3, 2))
    for b, k in np.ndindex(2, 3):
        if (fields[b] == k).any():
            want[b, k] = reduce(emb[b][fields[b] == k], 0)
    close(got, want, rtol=1e-5)
raises(ValueError, nn.MultiFieldEmbeddingLookup, 6, 2, 3, operator="MIN", match="'operator' must be one of")
raises(ValueError, nn.MultiFieldEmbeddingLookup(6, 2, 3), Tensor(ids, ms.int32), Tensor(vals, ms.float32),
       Tensor(fields + 1, ms.int32), match="'field_ids' must be in [0, 3)")

# Conv2dBnAct / DenseBnAct: the layer, its BatchNorm (eval: x / sqrt(1 + eps) at init) and activation.
img = rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
combo = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation="leakyrelu", alpha=0.1)
combo.set_train(False)
normed = combo.conv(Tensor(img)).asnumpy() / np.sqrt(1 + 1e-5)
close(combo(Tensor(img)), np.where(normed > 0, normed, 0.1 * normed), rtol=1e-5, atol=1e-6)
assert [n for n, _ in combo.cells_and_names()] == ["", "conv", "batchnorm", "activation"]
fc = nn.DenseBnAct(3, 2, activation="relu")
rows = rng.standard_normal((4, 3)).astype(np.float32)
close(fc(Tensor(rows)), np.maximum(rows @ fc.dense.weight.asnumpy().T + fc.dense.bias.asnumpy(), 0), rtol=1e-5)
assert [p.name for p in nn.DenseBnAct(3, 2, has_bn=True).trainable_params()] == \
    ["dense.weight", "dense.bias", "batchnorm.gamma", "batchnorm.beta"]
raises(TypeError, nn.DenseBnAct, 3, 2, activation=3, match="'activation' must be str or Cell")

# Gradients against finite differences (float64).
bi64 = nn.BiDense(3, 2, 2, weight_init="normal", bias_init="normal", dtype=ms.float64)
other = Tensor(rng.standard_normal((4, 2)))
check_grad(lambda t: (bi64(t, other) ** 2).sum(), rng.standard_normal((4, 3)))
# ClipByNorm computes in float32 (as MindSpore's): its gradient against the closed form instead.
rows, wts = np.array([[3.0, 4.0, 0, 0], [0.1, 0.2, 0.2, 0]]), np.arange(8.0).reshape(2, 4)
got = ms.grad(lambda t: (nn.ClipByNorm(axis=1)(t, Tensor(1.0)) * Tensor(wts, ms.float32)).sum())(Tensor(rows))
r0 = rows[0] / 5.0
close(got, [wts[0] / 5.0 - (wts[0] @ r0) * r0 / 5.0, wts[1]], rtol=1e-5, atol=1e-6)
mix = Tensor(rng.standard_normal((1, 3, 2, 2)))
check_grad(lambda t: (nn.Softmax2d()(t) * mix).sum(), rng.standard_normal((1, 3, 2, 2)))
check_grad(lambda t: (nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "same")(t) ** 2).sum(),
           rng.standard_normal((1, 2, 3, 3)))

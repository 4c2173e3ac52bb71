"""The nn Cells added for issue 15 compile in graph mode (no fallback to Python) and give the
PyNative values and gradients: padding, 3-D / LP pools, Unfold, Softmax2d, LRN, ChannelShuffle,
BiDense, Conv3dTranspose, MultiFieldEmbeddingLookup, SSIM, CTCLoss and MultiLabelMarginLoss in one
network; then MaxPool3d's indices into MaxUnpool3d and the array / embedding / loss Cells one by one."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import close

rng = np.random.default_rng(17)


class Apply(nn.Cell):
    def __init__(self, cell):
        super().__init__()
        self.cell = cell

    def construct(self, *xs):
        return self.cell(*xs)


class Unpool(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool3d(2, 2, return_indices=True)
        self.unpool = nn.MaxUnpool3d(2)

    def construct(self, x):
        out, indices = self.pool(x)
        return self.unpool(out, indices)


def f32(*shape):
    return Tensor(rng.random(shape).astype(np.float32))


singles = [
    (Unpool(), (f32(1, 2, 4, 4, 4),)),
    (nn.OneHot(depth=3), (Tensor(np.array([0, 2]), ms.int32),)),
    (nn.ClipByNorm(), (f32(3, 4), Tensor(1.0))),
    (nn.EmbeddingLookup(5, 3), (Tensor(np.array([1, 4]), ms.int32),)),
    (nn.SparseTensorDenseMatmul(), (Tensor(np.array([[0, 1], [1, 0]]), ms.int64), f32(2), (2, 3), f32(3, 2))),
    (nn.SampledSoftmaxLoss(2, 5, sampled_values=(Tensor(np.array([3, 4]), ms.int32), Tensor(np.full((2, 1), 0.4)),
                                                 Tensor(np.full(2, 0.4)))),
     (f32(5, 3), f32(5), Tensor(np.array([[0], [1]]), ms.int32), f32(2, 3))),
    (nn.MultiClassDiceLoss(), (f32(3, 2), Tensor(np.array([[0.0, 1], [1, 0], [0, 1]]), ms.float32))),
    (nn.MSSSIM(power_factors=(0.5, 0.5), filter_size=3), (f32(1, 1, 8, 8), f32(1, 1, 8, 8))),
    (nn.MatrixSetDiag(), (f32(2, 3, 4), f32(2, 3))),
    (nn.TimeDistributed(nn.Dense(3, 2), 1, 0), (f32(2, 4, 3),)),
    (nn.MicroBatchInterleaved(nn.Dense(3, 2), 2), (f32(4, 3),)),
    (nn.DenseBnAct(3, 2, has_bn=True, activation="relu"), (f32(2, 3),)),
]
eager = [Apply(cell)(*xs) for cell, xs in singles]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pad = nn.ReflectionPad2d((1, 0, 1, 1))
        self.rep = nn.ReplicationPad1d(1)
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="valid", weight_init="normal")
        self.lrn = nn.LRN(1)
        self.shuffle = nn.ChannelShuffle(2)
        self.lp = nn.LPPool2d(2, 2)
        self.softmax = nn.Softmax2d()
        self.unfold = nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])
        self.pool3d = nn.AvgPool3d(2, 1)
        self.up3d = nn.Conv3dTranspose(1, 1, 2, stride=2, pad_mode="valid", weight_init="normal")
        self.bidense = nn.BiDense(3, 3, 2, weight_init="normal")
        self.ssim = nn.SSIM(filter_size=3)
        self.ctc = nn.CTCLoss()
        self.mlm = nn.MultiLabelMarginLoss()
        self.fields = nn.MultiFieldEmbeddingLookup(5, 3, 2, operator="MEAN")

    def construct(self, x, vol, log_probs, targets, in_len, tg_len, scores, labels, ids, vals, field_ids):
        y = self.softmax(self.lp(self.shuffle(self.lrn(self.conv(self.pad(x))))))
        a = (self.unfold(y) ** 2).sum()   # squared: a plain sum of softmax outputs has no gradient
        b = self.rep(x[:, 0]).sum()
        c = self.up3d(self.pool3d(vol)).sum()
        emb = self.fields(ids, vals, field_ids)
        d = self.bidense(emb[:, 0], emb[:, 1]).sum()
        e = self.ssim(x[:, :1, :, :], x[:, 1:, :, :]).sum()
        return a + b + c + d + e + self.ctc(log_probs, targets, in_len, tg_len) + self.mlm(scores, labels)


lp = rng.standard_normal((5, 2, 4))
args = (Tensor(rng.random((2, 2, 7, 7)).astype(np.float32)), Tensor(rng.random((1, 1, 3, 3, 3)).astype(np.float32)),
        Tensor((lp - np.log(np.exp(lp).sum(-1, keepdims=True))).astype(np.float32)),
        Tensor(np.array([[1, 2], [3, 3]]), ms.int32), Tensor(np.array([5, 4]), ms.int32),
        Tensor(np.array([2, 2]), ms.int32), Tensor(rng.random((2, 4)).astype(np.float32)),
        Tensor(np.array([[1, -1, 0, 0], [2, 3, -1, 0]]), ms.int32), Tensor(np.array([[1, 4, 2], [0, 3, 3]]), ms.int32),
        Tensor(rng.random((2, 3)).astype(np.float32)), Tensor(np.array([[0, 1, 1], [1, 0, 1]]), ms.int32))
net = Net()
grad = ms.grad(net, grad_position=0, weights=net.trainable_params())
want_value = net(*args).asnumpy()
want_dx, want_dw = grad(*args)
ms.set_context(mode=ms.GRAPH_MODE)
before = ms._jit_stats()["fallbacks"]
close(net(*args), want_value, rtol=1e-5)
got_dx, got_dw = grad(*args)
close(got_dx, want_dx.asnumpy(), rtol=1e-4, atol=1e-6)
for g, w in zip(got_dw, want_dw):
    close(g, w.asnumpy(), rtol=1e-4, atol=1e-6)
for (cell, xs), want in zip(singles, eager):
    close(Apply(cell)(*xs), want.asnumpy(), rtol=1e-5, atol=1e-6)
assert ms._jit_stats()["fallbacks"] == before, ms._jit_stats()
assert ms._jit_stats()["compiles"] >= 2 + len(singles)

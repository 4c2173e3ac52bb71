"""Neural-network functions of mindspore.ops: ctc_loss (against a brute-force sum over alignments,
its gradient against finite differences), grid_sample, lp_pool, lrn, max_unpool, the margin losses,
gumbel_softmax, embedding, crop_and_resize and the bounding-box transforms."""
import itertools

import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Parameter, Tensor

from _check import close, fd_grad, raises

rng = np.random.default_rng(0)


def ctc_brute(lp, target):
    """-log of the summed probability of every alignment collapsing to target."""
    t_len, c = lp.shape
    total = 0.0
    for path in itertools.product(range(c), repeat=t_len):
        collapsed = [k for i, k in enumerate(path) if k != 0 and (i == 0 or path[i - 1] != k)]
        if collapsed == list(target):
            total += np.exp(sum(lp[i, k] for i, k in enumerate(path)))
    return -np.log(total)


T, N, C = 5, 3, 3
logits = rng.standard_normal((T, N, C))
lp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
targets = np.array([[1, 2], [1, 1], [2, 0]])
in_len, tg_len = np.array([5, 4, 3]), np.array([2, 2, 1])
loss, log_alpha = ops.ctc_loss(Tensor(lp), Tensor(targets), Tensor(in_len), Tensor(tg_len), reduction="none")
expect = [ctc_brute(lp[:in_len[b], b], targets[b, :tg_len[b]]) for b in range(N)]
close(loss, expect, rtol=1e-10)
assert log_alpha.shape == (N, T, 5)
close(ops.ctc_loss(Tensor(lp), Tensor(targets), Tensor(in_len), Tensor(tg_len))[0], np.mean(np.array(expect) / tg_len),
      rtol=1e-10)
close(ops.ctc_loss(Tensor(lp), Tensor(targets), Tensor(in_len), Tensor(tg_len), reduction="sum")[0], sum(expect),
      rtol=1e-10)
# "1 1" needs a blank between the repeats: 3 frames cannot be too few, 1 frame is impossible
short = ops.ctc_loss(Tensor(lp[:1, 1:2]), Tensor(targets[1:2]), Tensor(np.array([1])), Tensor(np.array([2])), reduction="none")[0]
assert np.isinf(short.asnumpy()).all()
zero = ops.ctc_loss(Tensor(lp[:1, 1:2]), Tensor(targets[1:2]), Tensor(np.array([1])), Tensor(np.array([2])),
                    reduction="none", zero_infinity=True)[0]
close(zero, [0.0])
f = lambda z: ops.ctc_loss(ops.log_softmax(z, -1), Tensor(targets), Tensor(in_len), Tensor(tg_len))[0]
close(ms.grad(f)(Tensor(logits)), fd_grad(f, logits), rtol=1e-6, atol=1e-8)
raises(ValueError, ops.ctc_loss, Tensor(lp), Tensor(targets), Tensor(np.array([6, 1, 1])), Tensor(tg_len),
       match="For 'CTCLossV2'")

img = rng.standard_normal((1, 2, 3, 4))
ident = np.stack(np.meshgrid(np.linspace(-1, 1, 4), np.linspace(-1, 1, 3)), -1)[None]
close(ops.grid_sample(Tensor(img), Tensor(ident), align_corners=True), img, rtol=1e-12)
close(ops.grid_sample(Tensor(img), Tensor(ident), mode="nearest", align_corners=True), img)
# a point halfway between pixel centres (align_corners=False): the average of its two neighbours
pt = np.array([[[[-0.5, -2.0 / 3]]]])  # x halfway between columns 0 and 1 of 4, y on row 0's centre
close(ops.grid_sample(Tensor(img), Tensor(pt))[0, :, 0, 0], (img[0, :, 0, 0] + img[0, :, 0, 1]) * 0.5, rtol=1e-12)
far = np.array([[[[3.0, 0.0]]]])
close(ops.grid_sample(Tensor(img), Tensor(far))[0, :, 0, 0], [0.0, 0.0])
close(ops.grid_sample(Tensor(img), Tensor(far), padding_mode="border", align_corners=True)[0, :, 0, 0],
      img[0, :, 1, 3], rtol=1e-12)
close(ops.grid_sample(Tensor(img), Tensor(np.array([[[[1.5, -1.0]]]])), padding_mode="reflection",
                      align_corners=True)[0, :, 0, 0], img[0, :, 0, 2] * 0.75 + img[0, :, 0, 3] * 0.25, rtol=1e-12)
gs = lambda g: (ops.grid_sample(Tensor(img), g) * Tensor(np.arange(2.0).reshape(1, 2, 1, 1) + 1)).sum()
gpts = rng.uniform(-0.9, 0.9, (1, 2, 2, 2))
close(ms.grad(gs)(Tensor(gpts)), fd_grad(gs, gpts), rtol=1e-6, atol=1e-8)

sig = np.abs(rng.standard_normal((1, 2, 6))) + 0.1
close(ops.lp_pool1d(Tensor(sig), 2, 3), np.sqrt((sig.reshape(1, 2, 2, 3) ** 2).sum(-1)), rtol=1e-12)
sq = np.abs(rng.standard_normal((1, 1, 4, 4))) + 0.1
close(ops.lp_pool2d(Tensor(sq), 3, 2), ((sq.reshape(1, 1, 2, 2, 2, 2) ** 3).sum((3, 5))) ** (1 / 3), rtol=1e-12)
x4 = rng.standard_normal((1, 4, 2, 2))
ref = np.zeros_like(x4)
for ch in range(4):
    lo, hi = max(0, ch - 1), min(4, ch + 2)
    ref[:, ch] = x4[:, ch] / (2.0 + 0.5 * (x4[:, lo:hi] ** 2).sum(1)) ** 0.75
close(ops.lrn(Tensor(x4), 1, 2.0, 0.5, 0.75), ref, rtol=1e-12)

pooled, where = ops.max_pool2d(Tensor(sq), 2, 2, return_indices=True)
un = ops.max_unpool2d(pooled, where, 2)
assert un.shape == (1, 1, 4, 4)
close(un, np.where(sq == un.asnumpy(), sq, 0.0))
close(un.asnumpy().sum((2, 3)), pooled.asnumpy().sum((2, 3)))
close(ops.max_unpool1d(Tensor(np.array([[5.0, 7.0]])), Tensor(np.array([[1, 2]])), 2), [[0, 5, 7, 0]])

xm = np.array([[0.1, 0.2, 0.4, 0.8], [0.3, 0.1, 0.5, 0.2]])
ym = np.array([3, 0])
ref = np.array([(np.maximum(0, 1 - xm[i, ym[i]] + xm[i]) * (np.arange(4) != ym[i])).sum() / 4 for i in range(2)])
close(ops.multi_margin_loss(Tensor(xm), Tensor(ym), reduction="none"), ref, rtol=1e-12)
close(ops.multi_margin_loss(Tensor(xm), Tensor(ym), p=2, weight=Tensor(np.array([1.0, 2, 3, 4]))),
      np.mean([(np.maximum(0, 1 - xm[i, ym[i]] + xm[i]) ** 2 * (np.arange(4) != ym[i])).sum() * [4, 1][i] / 4
               for i in range(2)]), rtol=1e-12)
# torch's documented example: 0.85
close(ops.multilabel_margin_loss(Tensor(np.array([[0.1, 0.2, 0.4, 0.8]])), Tensor(np.array([[3, 0, -1, 1]]))), 0.85,
      rtol=1e-12)

ms.set_seed(3)
soft = ops.gumbel_softmax(Tensor(np.log(np.array([[0.2, 0.3, 0.5]] * 2000))), tau=1.0)
close(soft.asnumpy().sum(-1), np.ones(2000))
hard = ops.gumbel_softmax(Tensor(np.log(np.array([[0.2, 0.3, 0.5]] * 4000))), hard=True)
counts = hard.asnumpy().sum(0)
assert set(np.unique(hard.asnumpy())) <= {0.0, 1.0} and np.allclose(counts / 4000, [0.2, 0.3, 0.5], atol=0.03), counts
hg = ms.grad(lambda z: (ops.gumbel_softmax(z, hard=True) * Tensor(np.array([1.0, 2.0, 3.0]))).sum())(
    Tensor(np.zeros((1, 3))))
assert np.abs(hg.asnumpy()).sum() > 0

w = np.arange(12.0).reshape(4, 3)
ids = np.array([[0, 2], [2, 3]])
close(ops.embedding(Tensor(ids), Tensor(w)), w[ids])
ge = ms.grad(lambda t: ops.embedding(Tensor(ids), t, padding_idx=2).sum())(Tensor(w))
close(ge, [[1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1]])
ge = ms.grad(lambda t: ops.embedding(Tensor(ids), t, scale_grad_by_freq=True).sum())(Tensor(w))
close(ge, [[1, 1, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1]])
wp = Parameter(Tensor(w.copy()), name="wp")
out = ops.embedding(Tensor(np.array([1])), wp, max_norm=1.0)
close(np.linalg.norm(out.asnumpy()), 1.0, rtol=1e-6)
close(np.linalg.norm(wp.asnumpy()[1]), 1.0, rtol=1e-6)
close(wp.asnumpy()[0], w[0])

im = np.arange(2 * 5 * 5 * 1, dtype=np.float32).reshape(2, 5, 5, 1)
crops = ops.crop_and_resize(Tensor(im), Tensor(np.array([[0.0, 0.0, 1.0, 1.0], [0.25, 0.25, 0.75, 0.5]], np.float32)),
                            Tensor(np.array([0, 1], np.int32)), (3, 3))
close(crops[0, :, :, 0], im[0, ::2, ::2, 0])
close(crops[1, :, :, 0], im[1, 1:4, :, 0][:, [1, 1, 2]] * [1, 0.5, 0] + im[1, 1:4, :, 0][:, [1, 2, 2]] * [0, 0.5, 1],
      rtol=1e-6)
ext = ops.crop_and_resize(Tensor(im), Tensor(np.array([[0.0, 0.0, 2.0, 1.0]], np.float32)), Tensor(np.array([0])),
                          (3, 1), extrapolation_value=-1.0)
close(ext[0, :, 0, 0], [im[0, 0, 2, 0], im[0, 4, 2, 0], -1.0])  # rows 0, 4 and 8 of 5

anchors = np.array([[0.0, 0.0, 9.0, 19.0], [5.0, 5.0, 14.0, 14.0]])
gt = np.array([[1.0, 2.0, 10.0, 25.0], [4.0, 6.0, 16.0, 13.0]])
enc = ops.bounding_box_encode(Tensor(anchors), Tensor(gt), stds=(0.1, 0.1, 0.2, 0.2))
pw, ph = anchors[:, 2] - anchors[:, 0] + 1, anchors[:, 3] - anchors[:, 1] + 1
gw, gh = gt[:, 2] - gt[:, 0] + 1, gt[:, 3] - gt[:, 1] + 1
dx = ((gt[:, 0] + gt[:, 2]) - (anchors[:, 0] + anchors[:, 2])) / 2 / pw
close(enc[:, 0], dx / 0.1, rtol=1e-12)
close(enc[:, 3], np.log(gh / ph) / 0.2, rtol=1e-12)
close(ops.bounding_box_decode(Tensor(anchors), enc, (100, 100), stds=(0.1, 0.1, 0.2, 0.2)), gt, rtol=1e-12)
close(ops.bounding_box_decode(Tensor(anchors), enc, (20, 12), stds=(0.1, 0.1, 0.2, 0.2))[0], [1, 2, 10, 19])
# MindSpore's documented examples
close(ops.bounding_box_encode(Tensor(np.array([[2.0, 2, 2, 3], [2, 2, 2, 3]], np.float32)),
                              Tensor(np.array([[1.0, 2, 1, 4], [1, 2, 1, 4]], np.float32))),
      [[-1.0, 0.25, 0.0, 0.40551758]] * 2, rtol=2e-4)  # the docs print log(1.5) from a lower-precision kernel
close(ops.bounding_box_decode(Tensor(np.array([[4.0, 1, 2, 1], [2, 2, 2, 3]], np.float32)),
                              Tensor(np.array([[3.0, 1, 2, 2], [1, 2, 1, 4]], np.float32)), (768, 1280)),
      [[4.1953125, 0.0, 0.0, 5.1953125], [2.140625, 0.0, 3.859375, 60.59375]], rtol=1e-3)
feat = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]], np.float32))
roi = ops.ROIAlign(2, 2, 0.5, 2)
close(roi(feat, Tensor(np.array([[0, 0.2, 0.3, 0.2, 0.3]], np.float32))), [[[[1.775, 2.025], [2.275, 2.525]]]], rtol=1e-6)
# a plane a + b x + c y is reproduced exactly by bilinear sampling: each bin gives the plane at its centre
plane = np.fromfunction(lambda n, ch, y, x: 1.0 + 0.5 * x + 2.0 * y + ch, (2, 2, 6, 7))
bins = ops.ROIAlign(2, 3, 1.0, 2, 0)(Tensor(plane), Tensor(np.array([[1, 1.0, 0.5, 4.0, 4.5]])))
cy = 0.5 + (np.arange(2) + 0.5) * 2.0
cx = 1.0 + (np.arange(3) + 0.5) * 1.0
close(bins[0, 1], 2.0 + 0.5 * cx[None, :] + 2.0 * cy[:, None], rtol=1e-12)
gr = ms.grad(lambda f: ops.ROIAlign(2, 2, 1.0, 2)(f, Tensor(np.array([[0, 0.0, 0.0, 2.0, 2.0]]))).sum())(Tensor(plane[:1]))
close(gr.asnumpy().sum(), 2 * 4.0, rtol=1e-12)  # each of the 2 channels' 4 bins spreads weight 1
raises(TypeError, ops.ctc_loss, Tensor(lp), Tensor(targets.astype(np.float32)), Tensor(in_len), Tensor(tg_len),
       match="the dtype of 'targets' must be int32 or int64")
close(ops.ctc_loss(Tensor(lp), Tensor(targets), (5, 4, 3), (2, 2, 1), reduction="none")[0], expect, rtol=1e-10)

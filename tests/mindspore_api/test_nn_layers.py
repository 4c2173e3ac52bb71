"""nn activations, normalization and basic layers: values against NumPy, gradients against central
finite differences in float64, MindSpore's attributes and error texts."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, raises

rng = np.random.default_rng(0)


def fd_grad(f, x, eps=1e-6):
    """Central finite differences of the scalar f(x) (x a float64 array)."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def check_grad(cell, x_np, weight=None):
    w = rng.standard_normal(cell(Tensor(x_np)).shape) if weight is None else weight
    analytic = ms.grad(lambda t: (cell(t) * Tensor(w)).sum())(Tensor(x_np)).asnumpy()
    numeric = fd_grad(lambda a: float((cell(Tensor(a)).asnumpy() * w).sum()), x_np)
    assert np.allclose(analytic, numeric, rtol=1e-4, atol=1e-6), (type(cell).__name__, analytic, numeric)


x = rng.standard_normal((3, 4)) * 2
sp = np.log1p(np.exp(x))
expected = {
    "relu6": np.clip(x, 0, 6),
    "silu": x / (1 + np.exp(-x)),
    "elu": np.where(x > 0, x, np.exp(x) - 1),
    "leakyrelu": np.where(x > 0, x, 0.2 * x),
    "prelu": np.where(x > 0, x, 0.25 * x),
    "hswish": x * np.clip(x + 3, 0, 6) / 6,
    "hsigmoid": np.clip(x + 3, 0, 6) / 6,
    "softsign": x / (1 + np.abs(x)),
    "mish": x * np.tanh(sp),
    "logsigmoid": -np.log1p(np.exp(-x)),
    "softplus": sp,
    "hardtanh": np.clip(x, -1, 1),
    "tanhshrink": x - np.tanh(x),
    "celu": np.where(x > 0, x, np.exp(x) - 1),
    "selu": 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1)),
    "logsoftmax": x - x.max(-1, keepdims=True) - np.log(np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True)),
    "softmin": np.exp(-x) / np.exp(-x).sum(-1, keepdims=True),
    "softshrink": np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0)),
}
for name, want in expected.items():
    cell = nn.get_activation(name)
    close(cell(Tensor(x)), want, rtol=1e-6, atol=1e-8)
    if name not in ("relu6", "hardtanh", "hsigmoid", "hswish", "softshrink"):  # kinks avoided below
        check_grad(cell, x)
check_grad(nn.HSwish(), np.array([[-2.0, -1.0, 0.5, 2.5]]))
close(nn.GELU(approximate=False)(Tensor(x)), x * 0.5 * (1 + np.vectorize(__import__("math").erf)(x / np.sqrt(2))))
close(nn.LeakyReLU(alpha=0.1)(Tensor(x)), np.where(x > 0, x, 0.1 * x))
close(nn.Threshold(0.5, 7.0)(Tensor(x)), np.where(x > 0.5, x, 7.0))
close(nn.GLU()(Tensor(x)), x[:, :2] / (1 + np.exp(-x[:, 2:])))
assert isinstance(nn.get_activation("relu"), nn.ReLU) and nn.get_activation(None) is None
raises(KeyError, nn.get_activation, "nope", match="'name' must be in")
raises(TypeError, nn.LeakyReLU, "a", match="For 'LeakyReLU'")
raises(ValueError, nn.Hardtanh, 1.0, -1.0, match="For 'Hardtanh'")
assert nn.Softmax(1).softmax.axis == (1,) and nn.Softmax().softmax.axis == (-1,)

# PReLU: per-channel learnt slope, its gradient is min(x, 0) summed.
pr = nn.PReLU(channel=3, w=[0.1, 0.2, 0.3])
xi = rng.standard_normal((2, 3, 2))
w = np.array([0.1, 0.2, 0.3]).reshape(1, 3, 1)
close(pr(Tensor(xi, ms.float32)), np.where(xi > 0, xi, w * xi), rtol=1e-5)
gw = ms.grad(lambda t: pr(t).sum(), grad_position=None, weights=pr.trainable_params())(Tensor(xi, ms.float32))
close(gw[0], np.minimum(xi, 0).sum(axis=(0, 2)), rtol=1e-5)
assert [n for n, _ in pr.parameters_and_names()] == ["w"]

# BatchNorm2d: batch statistics and moving updates in training, moving statistics in eval.
bn = nn.BatchNorm2d(3, momentum=0.8)
assert not bn.training and bn.moving_mean.requires_grad is False and bn.gamma.requires_grad
# As in MindSpore the attribute holds 1 - momentum (the batch statistics' weight), and the repr shows it.
assert abs(bn.momentum - 0.2) < 1e-12 and "momentum=%r" % (1.0 - 0.8) in repr(bn)
xb = rng.standard_normal((4, 3, 2, 2)) * 3 + 1
bn.set_train()
y = bn(Tensor(xb, ms.float32))
mean, var = xb.mean((0, 2, 3)), xb.var((0, 2, 3))
close(y, (xb - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5), rtol=1e-4, atol=1e-4)
close(bn.moving_mean, 0.2 * mean, rtol=1e-5)
close(bn.moving_variance, 0.8 + 0.2 * xb.var((0, 2, 3), ddof=1), rtol=1e-5)
bn.set_train(False)
close(bn(Tensor(xb, ms.float32)), (xb - 0.2 * mean[None, :, None, None])
      / np.sqrt(0.8 + 0.2 * xb.var((0, 2, 3), ddof=1)[None, :, None, None] + 1e-5), rtol=1e-4, atol=1e-4)
bn64 = nn.BatchNorm1d(3, use_batch_statistics=True)
check_grad(bn64, rng.standard_normal((5, 3)))
raises(ValueError, bn, Tensor(np.ones((2, 3), np.float32)), match="For 'BatchNorm2d'")
raises(TypeError, nn.BatchNorm2d, 3.0, match="'num_features'")
assert [n for n, _ in bn.parameters_and_names()] == ["moving_mean", "moving_variance", "gamma", "beta"]

# LayerNorm, GroupNorm, InstanceNorm2d
xl = rng.standard_normal((2, 3, 4))
ln = nn.LayerNorm((4,), begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-7)
m, v = xl.mean(-1, keepdims=True), xl.var(-1, keepdims=True)
close(ln(Tensor(xl)), (xl - m) / np.sqrt(v + 1e-7), rtol=1e-4, atol=1e-5)
check_grad(nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1), xl)
raises(TypeError, nn.LayerNorm, 4, match="normalized_shape")
gn = nn.GroupNorm(2, 4)
xg = rng.standard_normal((2, 4, 3))
g = xg.reshape(2, 2, -1)
close(gn(Tensor(xg)), ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 1e-5)).reshape(xg.shape),
      rtol=1e-4, atol=1e-5)
check_grad(gn, xg)
raises(ValueError, nn.GroupNorm, 3, 4, match="must be divided by 'num_groups'")
xi2 = rng.standard_normal((2, 3, 2, 2))
close(nn.InstanceNorm2d(3)(Tensor(xi2)), (xi2 - xi2.mean((2, 3), keepdims=True))
      / np.sqrt(xi2.var((2, 3), keepdims=True) + 1e-5), rtol=1e-4, atol=1e-5)

# Embedding: a gather whose table gradient counts each id.
emb = nn.Embedding(5, 2, embedding_table="ones", padding_idx=0)
ids = Tensor(np.array([[1, 0], [1, 4]], np.int32))
out = emb(ids)
assert out.shape == (2, 2, 2) and np.all(out.asnumpy()[0, 1] == 0)
gt = ms.grad(lambda i: emb(i).sum(), grad_position=None, weights=emb.trainable_params())(ids)[0]
close(gt, np.array([[1, 1], [2, 2], [0, 0], [0, 0], [1, 1]], np.float32))
close(nn.Embedding(5, 2, use_one_hot=True, embedding_table="ones")(ids), np.ones((2, 2, 2)))

# Flatten / Unflatten / padding / MatMul / Identity
xf = rng.standard_normal((2, 3, 4, 5))
assert nn.Flatten()(Tensor(xf)).shape == (2, 60)
assert nn.Flatten(1, 2)(Tensor(xf)).shape == (2, 12, 5)
assert nn.Flatten(0, -1)(Tensor(xf)).shape == (120,)
assert nn.Unflatten(2, (2, -1))(Tensor(xf)).shape == (2, 3, 2, 2, 5)
close(nn.ZeroPad2d((1, 0, 2, 1))(Tensor(xf)), np.pad(xf, ((0, 0), (0, 0), (2, 1), (1, 0))))
close(nn.ConstantPad1d((2, -1), 3.5)(Tensor(xf)), np.pad(xf[..., :-1], ((0, 0),) * 3 + ((2, 0),), constant_values=3.5))
check_grad(nn.ZeroPad2d(1), rng.standard_normal((1, 1, 2, 2)))
a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4))
close(nn.MatMul(transpose_x2=True)(Tensor(a), Tensor(b)), a @ b.transpose(0, 2, 1))
assert nn.Identity()(Tensor(a)).shape == (2, 3, 4)

# Conv1d against a direct sum; pools; adaptive pools
conv = nn.Conv1d(2, 3, 3, pad_mode="pad", padding=1, has_bias=True, weight_init="normal", bias_init="normal")
assert conv.weight.shape == (3, 2, 1, 3)
xc = rng.standard_normal((1, 2, 5)).astype(np.float32)
wc, bc = conv.weight.asnumpy()[:, :, 0, :], conv.bias.asnumpy()
xp = np.pad(xc, ((0, 0), (0, 0), (1, 1)))
ref = np.stack([np.einsum("oik,ik->o", wc, xp[0, :, j:j + 3]) for j in range(5)], -1)[None] + bc[None, :, None]
close(conv(Tensor(xc)), ref, rtol=1e-4, atol=1e-5)
close(nn.MaxPool1d(2, 2)(Tensor(xc)), xc[..., :4].reshape(1, 2, 2, 2).max(-1))
close(nn.AvgPool1d(2, 1)(Tensor(xc)), (xc[..., 1:] + xc[..., :-1]) / 2, rtol=1e-5)
xa = rng.standard_normal((1, 2, 5, 4))
ad = nn.AdaptiveAvgPool2d((2, 2))
want = np.stack([np.stack([xa[0, :, r0:r1, c0:c1].mean((1, 2)) for c0, c1 in [(0, 2), (2, 4)]], -1)
                 for r0, r1 in [(0, 3), (2, 5)]], -2)[None]
close(ad(Tensor(xa)), want)
check_grad(ad, xa)
# Output sizes that divide the input (None keeps an axis) take one reshape and mean: same values and gradient.
xe = rng.standard_normal((2, 3, 4, 6))
ae = nn.AdaptiveAvgPool2d((2, None))
close(ae(Tensor(xe)), xe.reshape(2, 3, 2, 2, 6).mean(3))
check_grad(ae, xe)
close(ops.adaptive_avg_pool2d(Tensor(xe), (2, 3)), xe.reshape(2, 3, 2, 2, 3, 2).mean((3, 5)))
close(nn.AdaptiveAvgPool1d(3)(Tensor(xe[0])), xe[0].reshape(3, 4, 3, 2).mean(-1))
close(nn.AdaptiveMaxPool2d(1)(Tensor(xa)), xa.max((2, 3), keepdims=True))

# Conv2dTranspose against the scatter form of a transposed convolution.


def conv_transpose_ref(x, w, s, d, crop):
    n, _, h, wd = x.shape
    _, o, kh, kw = w.shape
    hf, wf = (h - 1) * s[0] + d[0] * (kh - 1) + 1, (wd - 1) * s[1] + d[1] * (kw - 1) + 1
    out = np.zeros((n, o, hf, wf))
    for i in range(h):
        for j in range(wd):
            for a in range(kh):
                for b in range(kw):
                    out[:, :, i * s[0] + a * d[0], j * s[1] + b * d[1]] += x[:, :, i, j] @ w[:, :, a, b]
    t, bm, l, r = crop
    return out[:, :, t:hf - bm, l:wf - r]


for stride, dil, mode, pad, crop in [((2, 2), (1, 1), "valid", 0, (0, 0, 0, 0)),
                                     ((2, 1), (1, 2), "pad", (1, 0, 2, 1), (1, 0, 2, 1)),
                                     ((2, 2), (1, 1), "same", 0, (0, 1, 0, 1))]:
    ct = nn.Conv2dTranspose(2, 3, 3, stride=stride, dilation=dil, pad_mode=mode, padding=pad,
                            weight_init="normal")
    xt = rng.standard_normal((1, 2, 3, 4))
    close(ct(Tensor(xt, ms.float32)), conv_transpose_ref(xt, ct.weight.asnumpy().astype(np.float64), stride, dil,
                                                         crop), rtol=1e-4, atol=1e-5)
# output_padding, in float64: values, and the input's and weight's gradients against finite differences.
ct = nn.Conv2dTranspose(2, 3, 3, stride=2, pad_mode="pad", padding=1, output_padding=1, weight_init="normal")
wt = ct.weight.asnumpy().astype(np.float64)
ct.weight.set_dtype(ms.float64)  # set_data keeps a Parameter's dtype, as in MindSpore
xt = rng.standard_normal((1, 2, 3, 4))
close(ct(Tensor(xt)), conv_transpose_ref(xt, wt, (2, 2), (1, 1), (1, 0, 1, 0)))
check_grad(ct, xt)
proj = rng.standard_normal((1, 3, 6, 8))
gw = ms.grad(lambda t: (ct(t) * Tensor(proj)).sum(), None, ct.trainable_params())(Tensor(xt))[0].asnumpy()
assert np.allclose(gw, fd_grad(lambda k: float((conv_transpose_ref(xt, k, (2, 2), (1, 1), (1, 0, 1, 0)) * proj).sum()),
                               wt), rtol=1e-4, atol=1e-6)
assert nn.Conv2dTranspose(2, 3, 3, stride=2)(Tensor(np.ones((1, 2, 4, 5), np.float32))).shape == (1, 3, 8, 10)
assert nn.Conv1dTranspose(2, 3, 3, stride=2, pad_mode="valid")(Tensor(np.ones((1, 2, 5), np.float32))).shape == (1, 3, 11)
raises(ValueError, nn.Conv2dTranspose, 2, 3, 3, pad_mode="full", match="'pad_mode'")
c2 = nn.Conv2d(3, 4, 3, stride=2)
assert c2.kernel_size == (3, 3) and c2.stride == (2, 2) and c2.in_channels == 3 and c2.bias is None

# Conv3d against a direct sum over windows (padding in 'pad' mode, strides, 'same').


def conv3d_ref(xx, w, s, pads):
    xx = np.pad(xx, ((0, 0), (0, 0)) + tuple(pads))
    _, _, dd, hh, ww = xx.shape
    _, _, kd, kh, kw = w.shape
    out = np.zeros((xx.shape[0], w.shape[0], (dd - kd) // s[0] + 1, (hh - kh) // s[1] + 1, (ww - kw) // s[2] + 1))
    for i, j, k in np.ndindex(out.shape[2:]):
        patch = xx[:, :, i * s[0]:i * s[0] + kd, j * s[1]:j * s[1] + kh, k * s[2]:k * s[2] + kw]
        out[:, :, i, j, k] = np.einsum("ncdhw,ocdhw->no", patch, w)
    return out


x3d = rng.standard_normal((1, 2, 4, 5, 5))
c3 = nn.Conv3d(2, 3, (2, 3, 2), stride=(2, 1, 2), pad_mode="pad", padding=(1, 0, 1, 1, 0, 2), weight_init="normal")
close(c3(Tensor(x3d, ms.float32)), conv3d_ref(x3d, c3.weight.asnumpy().astype(np.float64), (2, 1, 2),
                                              ((1, 0), (1, 1), (0, 2))), rtol=1e-4, atol=1e-5)
assert nn.Conv3d(2, 3, 3, stride=2)(Tensor(x3d, ms.float32)).shape == (1, 3, 2, 3, 3)
c3g = nn.Conv3d(2, 1, 2, pad_mode="valid", weight_init="normal")
c3g.weight.set_dtype(ms.float64)
check_grad(c3g, rng.standard_normal((1, 2, 3, 3, 3)))
# Groups, strides and dilation (a dilated kernel is the kernel with zeros between its taps), in float64:
# values, and the input's and weight's gradients against finite differences.
c3d = nn.Conv3d(4, 2, (2, 2, 3), stride=(2, 1, 1), dilation=(2, 1, 2), group=2, pad_mode="valid",
                weight_init="normal")
c3d.weight.set_dtype(ms.float64)
w3 = c3d.weight.asnumpy()
x3g = rng.standard_normal((2, 4, 6, 3, 6))


def grouped_ref(xx, w):
    wd = np.zeros(w.shape[:2] + (3, 2, 5))
    wd[:, :, ::2, :, ::2] = w
    return np.concatenate([conv3d_ref(xx[:, 2 * i:2 * i + 2], wd[i:i + 1], (2, 1, 1), ((0, 0),) * 3)
                           for i in range(2)], 1)


close(c3d(Tensor(x3g)), grouped_ref(x3g, w3))
check_grad(c3d, x3g)
proj3 = rng.standard_normal((2, 2, 2, 2, 2))
gw3 = ms.grad(lambda t: (c3d(t) * Tensor(proj3)).sum(), None, c3d.trainable_params())(Tensor(x3g))[0].asnumpy()
assert np.allclose(gw3, fd_grad(lambda k: float((grouped_ref(x3g, k) * proj3).sum()), w3), rtol=1e-4, atol=1e-6)
raises(ValueError, nn.Conv3d, 2, 3, 3, padding=1, match="'padding' must be zero")

# Attributes of the C++ layers
p = nn.AvgPool2d(3, 2)
assert p.kernel_size == 3 and p.stride == 2 and p.pad_mode == "VALID"
assert nn.MaxPool2d(2, 2, pad_mode="same").kernel_size == 2
raises(TypeError, nn.AvgPool2d, 3, 2.5, match="'stride'")
assert nn.Dense(2, 2).activation is None and isinstance(nn.Dense(2, 2, activation="relu").activation, nn.ReLU)

# Dropout2d drops whole channels in training only.
d2 = nn.Dropout2d(p=0.5)
xd = np.ones((4, 8, 3, 3), np.float32)
assert np.all(d2(Tensor(xd)).asnumpy() == 1)
d2.set_train()
yd = d2(Tensor(xd)).asnumpy()
per_channel = yd.reshape(4, 8, -1)
assert np.all((per_channel == per_channel[..., :1])) and set(np.unique(yd)) <= {0.0, 2.0}
raises(ValueError, nn.Dropout2d, 1.5, match="For 'Dropout2d'")
print("test_nn_layers: ok")

"""MultiheadAttention (masks, kdim / vdim, batch_first, weights) against NumPy's scaled dot-product
attention; TransformerEncoderLayer / DecoderLayer (post- and pre-norm) against NumPy; Transformer's
stacks start from equal copies; gradients of attention against finite differences."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import close, fd_grad

rng = np.random.RandomState(13)


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_mha(mha, q, k, v, add_mask=None):
    """q (L, N, E), k / v (S, N, E) in float64; returns output and head-averaged weights."""
    e, h = mha.embed_dim, mha.num_heads
    d = e // h
    if mha.in_proj_weight is not None:
        w = mha.in_proj_weight.asnumpy().astype(np.float64)
        wq, wk, wv = w[:e], w[e:2 * e], w[2 * e:]
    else:
        wq, wk, wv = (p.asnumpy().astype(np.float64) for p in (mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight))
    b = mha.in_proj_bias.asnumpy().astype(np.float64)
    Q, K, V = q @ wq.T + b[:e], k @ wk.T + b[e:2 * e], v @ wv.T + b[2 * e:]
    L, N, S = q.shape[0], q.shape[1], k.shape[0]
    out = np.zeros((L, N, e))
    weights = np.zeros((N, L, S))
    for n in range(N):
        for i in range(h):
            sl = slice(i * d, (i + 1) * d)
            s = Q[:, n, sl] @ K[:, n, sl].T / np.sqrt(d)
            if add_mask is not None:
                s = s + add_mask[n]
            a = softmax(s)
            weights[n] += a / h
            out[:, n, sl] = a @ V[:, n, sl]
    wo, bo = mha.out_proj.weight.asnumpy().astype(np.float64), mha.out_proj.bias.asnumpy().astype(np.float64)
    return out @ wo.T + bo, weights


mha = nn.MultiheadAttention(8, 2)
assert [p.name for p in mha.trainable_params()][:2] == ["in_proj_weight", "in_proj_bias"]
assert mha.in_proj_weight.shape == (24, 8)
q, k = rng.randn(4, 3, 8), rng.randn(5, 3, 8)
out, w = mha(Tensor(q, ms.float32), Tensor(k, ms.float32), Tensor(k, ms.float32))
want, want_w = np_mha(mha, q, k, k)
close(out, want.astype(np.float32), 1e-4, 1e-5)
close(w, want_w.astype(np.float32), 1e-4, 1e-5)

# key_padding_mask (True hides) and a float attn_mask; batch_first.
pad = np.zeros((3, 5), bool)
pad[1, 3:] = True
attn = rng.randn(4, 5) * 0.1
out, w = mha(Tensor(q, ms.float32), Tensor(k, ms.float32), Tensor(k, ms.float32), key_padding_mask=Tensor(pad),
             attn_mask=Tensor(attn, ms.float32))
mask = attn[None] + np.where(pad, -np.inf, 0)[:, None, :]
want, want_w = np_mha(mha, q, k, k, mask)
close(out, want.astype(np.float32), 1e-4, 1e-5)
assert np.all(w.asnumpy()[1, :, 3:] == 0)
bf = nn.MultiheadAttention(8, 2, kdim=6, vdim=4, batch_first=True)
assert bf.in_proj_weight is None and bf.k_proj_weight.shape == (8, 6)
kk, vv = rng.randn(5, 3, 6), rng.randn(5, 3, 4)
out, _ = bf(Tensor(q.transpose(1, 0, 2), ms.float32), Tensor(kk.transpose(1, 0, 2), ms.float32),
            Tensor(vv.transpose(1, 0, 2), ms.float32))
close(out, np_mha(bf, q, kk, vv)[0].transpose(1, 0, 2).astype(np.float32), 1e-4, 1e-5)
assert mha(Tensor(q, ms.float32), Tensor(k, ms.float32), Tensor(k, ms.float32), need_weights=False)[1] is None
_, per_head = mha(Tensor(q, ms.float32), Tensor(k, ms.float32), Tensor(k, ms.float32), average_attn_weights=False)
assert per_head.shape == (3, 2, 4, 5)

# Gradient of the attention output with respect to the query, in float64.
mha64 = nn.MultiheadAttention(4, 2)
for p in mha64.get_parameters():
    p.set_dtype(ms.float64)
kv = Tensor(rng.randn(3, 2, 4))
f = lambda x: (mha64(x, kv, kv)[0] ** 2).sum()
q64 = rng.randn(2, 2, 4)
close(ms.grad(f)(Tensor(q64)), fd_grad(f, q64), 1e-5, 1e-6)


# TransformerEncoderLayer (post-norm and pre-norm) against NumPy, dropout 0.
def np_layernorm(x, cell, eps=1e-5):
    g, b = cell.gamma.asnumpy(), cell.beta.asnumpy()
    m, v = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def np_dense(x, dense):
    return x @ dense.weight.asnumpy().astype(np.float64).T + dense.bias.asnumpy()


def np_encoder_layer(layer, x, norm_first):
    sa = lambda y: np_mha(layer.self_attn, y, y, y)[0]
    ff = lambda y: np_dense(np.maximum(np_dense(y, layer.linear1), 0), layer.linear2)
    if norm_first:
        x = x + sa(np_layernorm(x, layer.norm1))
        return x + ff(np_layernorm(x, layer.norm2))
    x = np_layernorm(x + sa(x), layer.norm1)
    return np_layernorm(x + ff(x), layer.norm2)


src = rng.randn(5, 2, 8)
for norm_first in (False, True):
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first)
    close(layer(Tensor(src, ms.float32)), np_encoder_layer(layer, src, norm_first).astype(np.float32), 1e-4, 1e-4)

dec = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)
tgt, mem = rng.randn(3, 2, 8), rng.randn(5, 2, 8)
x = np_layernorm(tgt + np_mha(dec.self_attn, tgt, tgt, tgt)[0], dec.norm1)
x = np_layernorm(x + np_mha(dec.multihead_attn, x, mem, mem)[0], dec.norm2)
x = np_layernorm(x + np_dense(np.maximum(np_dense(x, dec.linear1), 0), dec.linear2), dec.norm3)
close(dec(Tensor(tgt, ms.float32), Tensor(mem, ms.float32)), x.astype(np.float32), 1e-4, 1e-4)

# The stacks start from copies equal to the given layer; Transformer's output has tgt's shape.
enc = nn.TransformerEncoder(layer, 2)
assert len(enc.layers) == 2
close(enc.layers[1].linear1.weight, layer.linear1.weight.asnumpy())
assert enc.layers[0].linear1.weight is not enc.layers[1].linear1.weight
model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
assert model(Tensor(src, ms.float32), Tensor(tgt, ms.float32)).shape == (3, 2, 8)

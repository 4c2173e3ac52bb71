"""nn.AdaFactor against a NumPy transcription of its update (factored second moments for
matrices, a full one for vectors, the relative step, parameter scaling, update clipping, the
first moment and decoupled weight decay), over three steps; and its argument errors."""
import math

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from _check import close, raises

rng = np.random.default_rng(11)
w0 = rng.standard_normal((3, 4)).astype(np.float32)
b0 = rng.standard_normal(4).astype(np.float32)
x = rng.standard_normal((5, 3)).astype(np.float32)


def grads_of(w, b):
    """d/dw, d/db of sum((x @ w + b)^2)."""
    y = x @ w + b
    return 2 * x.T @ y, 2 * y.sum(0)


def reference(steps, lr=None, relative=True, scale=True, warmup=False, beta1=0.9, wd=0.0, clip=1.0, decay=0.8):
    params = [w0.astype(np.float64), b0.astype(np.float64)]
    row, col, full = np.zeros(3), np.zeros(4), np.zeros(4)
    m = [np.zeros_like(p) for p in params]
    for t in range(1, steps + 1):
        gs = grads_of(*[p.astype(np.float32) for p in params])
        b2 = 1.0 - t ** (-decay)
        for i, (p, g) in enumerate(zip(params, gs)):
            rho = min(1e-6 * t if warmup else 1e-2, 1 / math.sqrt(t)) if relative else lr
            alpha = max(1e-3, np.sqrt(np.mean(p * p))) * rho if scale else rho
            u = g.astype(np.float64) ** 2 + 1e-30
            if p.ndim > 1:
                row = b2 * row + (1 - b2) * u.mean(-1)
                col = b2 * col + (1 - b2) * u.mean(-2)
                upd = (1 / np.sqrt(row / row.mean()))[:, None] * (1 / np.sqrt(col))[None] * g
            else:
                full = b2 * full + (1 - b2) * u
                upd = g / np.sqrt(full)
            upd = upd / max(np.sqrt(np.mean(upd * upd)) / clip, 1.0) * alpha
            if beta1 > 0:
                m[i] = beta1 * m[i] + (1 - beta1) * upd
                upd = m[i]
            params[i] = p - wd * alpha * p - upd
    return params


def run(steps, **kwargs):
    w, b = Parameter(Tensor(w0), name="w"), Parameter(Tensor(b0), name="b")
    opt = nn.AdaFactor([w, b], **kwargs)
    for _ in range(steps):
        opt(tuple(Tensor(g) for g in grads_of(w.asnumpy(), b.asnumpy())))
    return w, b


for kwargs, ref in (({}, {}),
                    (dict(learning_rate=0.05, relative_step=False, scale_parameter=False, beta1=0.0, weight_decay=0.1),
                     dict(lr=0.05, relative=False, scale=False, beta1=0.0, wd=0.1)),
                    (dict(warmup_init=True, clip_threshold=0.5), dict(warmup=True, clip=0.5))):
    w, b = run(3, **kwargs)
    want_w, want_b = reference(3, **ref)
    close(w, want_w, rtol=1e-5, atol=1e-6)
    close(b, want_b, rtol=1e-5, atol=1e-6)

opt = nn.AdaFactor([Parameter(Tensor(w0), name="w")])
assert tuple(opt.exp_avg_sq_row[0].shape) == (3,) and tuple(opt.exp_avg_sq_col[0].shape) == (4,)
raises(ValueError, nn.AdaFactor, [Parameter(Tensor(w0), name="w")], learning_rate=0.1,
       match="cannot be combined with relative_step=True")
raises(ValueError, nn.AdaFactor, [Parameter(Tensor(w0), name="w")], warmup_init=True, relative_step=False,
       learning_rate=0.1, match="warmup_init=True requires relative_step=True")
raises(ValueError, nn.AdaFactor, [Parameter(Tensor(w0), name="w")], decay_rate=1.0, match="'decay_rate' must be in")

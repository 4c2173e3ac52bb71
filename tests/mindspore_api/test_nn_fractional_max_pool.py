"""nn.FractionalMaxPool2d / 3d: window starts from the samples, maxima and their flat indices,
unbatched input, output_ratio, gradients to the maxima only, drawn samples and argument errors."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn
from _check import close, raises

rng = np.random.default_rng(3)


def starts(size, k, out, u):
    if out == 1:
        return [size - k]
    alpha = (size - k) / (out - 1)
    return [int((i + u) * alpha) - int(u * alpha) for i in range(out - 1)] + [size - k]


# 2-D: sample entry 0 drives W, entry 1 drives H.
x = rng.standard_normal((2, 3, 7, 9)).astype(np.float32)
u = rng.uniform(size=(2, 3, 2)).astype(np.float32)
y, idx = nn.FractionalMaxPool2d(2, output_size=(3, 4), return_indices=True,
                                _random_samples=Tensor(u))(Tensor(x))
want_y = np.zeros((2, 3, 3, 4), np.float32)
want_i = np.zeros((2, 3, 3, 4), np.int64)
for n, c in np.ndindex(2, 3):
    for a, h in enumerate(starts(7, 2, 3, u[n, c, 1])):
        for b, w in enumerate(starts(9, 2, 4, u[n, c, 0])):
            win = x[n, c, h:h + 2, w:w + 2]
            r, s = np.unravel_index(np.argmax(win), win.shape)
            want_y[n, c, a, b] = win[r, s]
            want_i[n, c, a, b] = (h + r) * 9 + w + s
close(y, want_y)
assert idx.dtype == ms.int64 and (idx.asnumpy() == want_i).all()

# Gradient: 1 at each selected maximum (windows may overlap: counts add up).
g = ms.grad(lambda t: nn.FractionalMaxPool2d(2, output_size=(3, 4), _random_samples=Tensor(u))(t).sum())(Tensor(x))
want_g = np.zeros(x.size, np.float32)
np.add.at(want_g.reshape(2, 3, -1), (np.arange(2)[:, None, None], np.arange(3)[None, :, None],
                                     want_i.reshape(2, 3, -1)), 1.0)
close(g, want_g.reshape(x.shape))

# 3-D, unbatched (C, D, H, W), with output_ratio: entry 0 drives D.
v = rng.standard_normal((2, 5, 6, 8)).astype(np.float32)
s3 = np.array([[[0.2, 0.5, 0.9]], [[0.7, 0.1, 0.4]]], np.float32).reshape(1, 2, 3)
out3 = nn.FractionalMaxPool3d((2, 2, 3), output_ratio=(0.5, 0.5, 0.5), _random_samples=Tensor(s3))(Tensor(v))
assert out3.shape == (2, 2, 3, 4)
for c in range(2):
    ds, hs, ws = (starts(5, 2, 2, s3[0, c, 0]), starts(6, 2, 3, s3[0, c, 1]), starts(8, 3, 4, s3[0, c, 2]))
    ref = [[[v[c, d:d + 2, h:h + 2, w:w + 3].max() for w in ws] for h in hs] for d in ds]
    close(out3[c], np.array(ref, np.float32))

# Without samples they are drawn: shape and that each output is an input value.
drawn = nn.FractionalMaxPool2d(3, output_size=2)(Tensor(x)).asnumpy()
assert drawn.shape == (2, 3, 2, 2) and np.isin(drawn, x).all()

raises(ValueError, nn.FractionalMaxPool2d, 2, match="'output_size' and 'output_ratio' can not be None")
raises(ValueError, nn.FractionalMaxPool2d(2, output_size=(8, 2)), Tensor(x), match="must not exceed")
raises(ValueError, nn.FractionalMaxPool2d(2, output_size=2, _random_samples=Tensor(u[:1])), Tensor(x),
       match="'_random_samples' must have shape (2, 3, 2)")

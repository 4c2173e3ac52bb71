"""RNN / LSTM / GRU (multi-layer, bidirectional, batch_first, seq_length, initial states) and
RNNCell / LSTMCell / GRUCell against a NumPy implementation of MindSpore's gate equations, their
parameter names and shapes, and gradients against finite differences in float64."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import close, fd_grad, raises

rng = np.random.RandomState(7)


def sig(x):
    return 1 / (1 + np.exp(-x))


def np_cell(mode, x, state, w_ih, w_hh, b_ih, b_hh):
    if mode == "LSTM":
        h, c = state
        i, f, g, o = np.split(x @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, -1)
        c = sig(f) * c + sig(i) * np.tanh(g)
        return sig(o) * np.tanh(c), c
    if mode == "GRU":
        i_r, i_z, i_n = np.split(x @ w_ih.T + b_ih, 3, -1)
        h_r, h_z, h_n = np.split(state @ w_hh.T + b_hh, 3, -1)
        r, z = sig(i_r + h_r), sig(i_z + h_z)
        n = np.tanh(i_n + r * h_n)
        return (1 - z) * n + z * state
    pre = x @ w_ih.T + b_ih + state @ w_hh.T + b_hh
    return np.tanh(pre) if mode == "RNN_TANH" else np.maximum(pre, 0)


def np_rnn(mode, net, x, lengths=None):
    """x (T, B, I); returns outputs (T, B, D*H) and final h (and c)."""
    params = {p.name: p.asnumpy().astype(np.float64) for p in net.trainable_params()}
    steps, batch = x.shape[:2]
    lengths = lengths if lengths is not None else [steps] * batch
    hid, dirs = net.hidden_size, net.num_directions
    h_n, c_n, inp = [], [], x
    for layer in range(net.num_layers):
        outs = []
        for d in range(dirs):
            sfx = "l%d%s" % (layer, "_reverse" if d else "")
            w = [params[k + sfx] for k in ("weight_ih_", "weight_hh_", "bias_ih_", "bias_hh_")]
            out = np.zeros((steps, batch, hid))
            hs, cs = [], []
            for b in range(batch):
                h = np.zeros(hid)
                state = (h, h.copy()) if mode == "LSTM" else h
                order = range(lengths[b]) if d == 0 else range(lengths[b] - 1, -1, -1)
                for t in order:
                    state = np_cell(mode, inp[t, b], state, *w)
                    out[t, b] = state[0] if mode == "LSTM" else state
                hs.append(state[0] if mode == "LSTM" else state)
                cs.append(state[1] if mode == "LSTM" else None)
            outs.append(out)
            h_n.append(np.stack(hs))
            c_n.append(np.stack(cs) if mode == "LSTM" else None)
        inp = np.concatenate(outs, -1)
    return inp, np.stack(h_n), (np.stack(c_n) if mode == "LSTM" else None)


# Parameter names and shapes follow MindSpore.
lstm = nn.LSTM(4, 3, num_layers=2, bidirectional=True)
names = [p.name for p in lstm.trainable_params()]
assert names[:4] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"], names
assert "weight_ih_l1_reverse" in names and len(names) == 16
assert lstm.weight_ih_l1.shape == (12, 6) and lstm.weight_hh_l0.shape == (12, 3)
assert nn.GRU(4, 5).weight_ih_l0.shape == (15, 4) and nn.RNN(4, 5).bias_hh_l0.shape == (5,)
bound = 1 / np.sqrt(3)
assert np.abs(lstm.weight_ih_l0.asnumpy()).max() <= bound

# Forward values: every mode, 2 layers, both directions, batch_first, and seq_length.
x = rng.randn(5, 3, 4).astype(np.float32)
for make, mode in ((lambda **k: nn.RNN(4, 3, **k), "RNN_TANH"),
                   (lambda **k: nn.RNN(4, 3, nonlinearity="relu", **k), "RNN_RELU"),
                   (lambda **k: nn.LSTM(4, 3, **k), "LSTM"), (lambda **k: nn.GRU(4, 3, **k), "GRU")):
    net = make(num_layers=2, bidirectional=True)
    out, state = net(Tensor(x))
    want, h_n, c_n = np_rnn(mode, net, x.astype(np.float64))
    close(out, want.astype(np.float32), 1e-4, 1e-5)
    close(state[0] if mode == "LSTM" else state, h_n.astype(np.float32), 1e-4, 1e-5)
    if mode == "LSTM":
        close(state[1], c_n.astype(np.float32), 1e-4, 1e-5)
    lengths = [5, 2, 4]
    out, state = net(Tensor(x), seq_length=Tensor(np.array(lengths, np.int32)))
    want, h_n, _ = np_rnn(mode, net, x.astype(np.float64), lengths)
    close(out, want.astype(np.float32), 1e-4, 1e-5)
    close(state[0] if mode == "LSTM" else state, h_n.astype(np.float32), 1e-4, 1e-5)
    bf = make(batch_first=True)
    out, _ = bf(Tensor(x.transpose(1, 0, 2)))
    close(out, np_rnn(mode, bf, x.astype(np.float64))[0].transpose(1, 0, 2).astype(np.float32), 1e-4, 1e-5)

# An initial state is used (GRU with hx): one step by hand.
gru = nn.GRU(4, 3)
hx = rng.randn(1, 3, 3).astype(np.float32)
out, h = gru(Tensor(x[:1]), Tensor(hx))
w = [p.asnumpy() for p in gru.trainable_params()]
close(h[0], np_cell("GRU", x[0], hx[0], *w).astype(np.float32), 1e-5, 1e-6)
raises(ValueError, gru, Tensor(x), Tensor(np.zeros((2, 3, 3), np.float32)), match="the shape of 'hx'")
raises(ValueError, nn.RNN, 4, 3, nonlinearity="sigmoid", match="'nonlinearity' must be in ['tanh', 'relu']")
raises(ValueError, nn.LSTM, 4, 3, dropout=1.0, match="'dropout'")

# Cells.
xc, hc, cc = rng.randn(2, 4).astype(np.float32), rng.randn(2, 3).astype(np.float32), rng.randn(2, 3).astype(np.float32)
cell = nn.LSTMCell(4, 3)
assert [p.name for p in cell.trainable_params()] == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]
h1, c1 = cell(Tensor(xc), (Tensor(hc), Tensor(cc)))
wh, wc = np_cell("LSTM", xc, (hc, cc), *[p.asnumpy() for p in cell.trainable_params()])
close(h1, wh, 1e-5, 1e-6)
close(c1, wc, 1e-5, 1e-6)
for cls, mode in ((nn.GRUCell, "GRU"), (nn.RNNCell, "RNN_TANH")):
    cell = cls(4, 3)
    close(cell(Tensor(xc), Tensor(hc)), np_cell(mode, xc, hc, *[p.asnumpy() for p in cell.trainable_params()]),
          1e-5, 1e-6)
cell = nn.RNNCell(4, 3, has_bias=False, nonlinearity="relu")
assert [p.name for p in cell.trainable_params()] == ["weight_ih", "weight_hh"]
close(cell(Tensor(xc), Tensor(hc)), np.maximum(xc @ cell.weight_ih.asnumpy().T + hc @ cell.weight_hh.asnumpy().T, 0),
      1e-5, 1e-6)

# Gradients in float64 against finite differences (input and a weight).
for make in (lambda: nn.LSTM(2, 2, bidirectional=True, dtype=ms.float64),
             lambda: nn.GRU(2, 2, num_layers=2, dtype=ms.float64),
             lambda: nn.RNN(2, 2, dtype=ms.float64)):
    net = make()
    x64 = rng.randn(3, 2, 2)
    f = lambda t: (net(t)[0] ** 2).sum()
    close(ms.grad(f)(Tensor(x64)), fd_grad(f, x64), 1e-5, 1e-6)
    # Every weight of the first layer: the input weights and both biases go through the product
    # taken over all steps at once, the recurrent weight through each step.
    for weight in (net.weight_hh_l0, net.weight_ih_l0, net.bias_ih_l0, net.bias_hh_l0):
        w0 = weight.asnumpy().copy()

        def g(wt):
            weight.set_data(wt)
            return (net(Tensor(x64))[0] ** 2).sum()
        numeric = fd_grad(g, w0)
        weight.set_data(Tensor(w0))
        analytic = ms.grad(lambda t: (net(t)[0] ** 2).sum(), grad_position=None, weights=[weight])(Tensor(x64))[0]
        close(analytic, numeric, 1e-5, 1e-6)

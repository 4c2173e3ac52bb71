"""Recurrent Cells of MindSpore 2.2 composed from mindspore.ops: RNN, LSTM, GRU (multi-layer,
bidirectional, batch_first, seq_length) and RNNCell, LSTMCell, GRUCell.

Gates follow MindSpore (and PyTorch): LSTM rows of weight_ih / weight_hh are input, forget, cell,
output; GRU rows are reset, update ("input"), new. Parameters are named weight_ih_l{k}[_reverse],
weight_hh_l{k}[_reverse], bias_ih_l{k}[_reverse], bias_hh_l{k}[_reverse] (the cells: weight_ih,
weight_hh, bias_ih, bias_hh), all drawn from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) as
MindSpore 2.2 draws them, so np.random.seed gives its weights: the layers with
np.random.uniform in float64 (then float32), the cells with initializer(Uniform) after a discarded
np.random.randn of each shape (what MindSpore's RNNCellBase allocates first).

A step past a sequence's length (seq_length) keeps the hidden state and outputs zeros; the reverse
direction reverses each sequence within its own length, done as a batched product with
permutation matrices built from the (non-differentiable) lengths.
"""
import math

import numpy as np

import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Uniform, initializer

__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _check_positive_int(who, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("For '%s', the type of '%s' must be int, but got %s." % (who, name, type(value).__name__))
    if value <= 0:
        raise ValueError("For '%s', the '%s' must be a positive int, but got %d." % (who, name, value))
    return value


def _check_bool(who, name, value):
    if not isinstance(value, bool):
        raise TypeError("For '%s', the '%s' must be a bool, but got %s." % (who, name, type(value).__name__))
    return value


def _nonlinearity(who, nonlinearity):
    if nonlinearity not in ("tanh", "relu"):
        raise ValueError("For '%s', the 'nonlinearity' must be in ['tanh', 'relu'], but got '%s'."
                         % (who, nonlinearity))
    return nonlinearity


def _numpy_uniform(shape, hidden_size, name, dtype):
    stdv = 1 / math.sqrt(hidden_size)
    values = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
    return Parameter(Tensor(values, dtype), name=name)


def _cell_uniform(shape, hidden_size, name, dtype):
    return Parameter(initializer(Uniform(1 / math.sqrt(hidden_size)), shape, dtype), name=name)


def _linear(x, w, b):
    y = ops.matmul(x, ops.transpose(w, (1, 0)))
    return y if b is None else y + b


# One step of a layer run over a whole sequence: `xw` is the step's input already multiplied by the
# input weights (with the biases that can be added there), `w_hh_t` the recurrent weight already
# transposed (see _RNNBase._direction). The cells (RNNCell, LSTMCell, GRUCell) are one such step.
def _rnn_tanh_step(xw, h, w_hh_t, b_hh):
    return ops.tanh(xw + ops.matmul(h, w_hh_t))


def _rnn_relu_step(xw, h, w_hh_t, b_hh):
    return ops.relu(xw + ops.matmul(h, w_hh_t))


def _lstm_step(xw, state, w_hh_t, b_hh):
    h, c = state
    gates = xw + ops.matmul(h, w_hh_t)
    i, f, g, o = ops.split(gates, gates.shape[-1] // 4, -1)
    c = ops.sigmoid(f) * c + ops.sigmoid(i) * ops.tanh(g)
    return ops.sigmoid(o) * ops.tanh(c), c


def _gru_step(xw, h, w_hh_t, b_hh):
    gh = ops.matmul(h, w_hh_t)
    if b_hh is not None:  # inside the reset gate's product: not foldable into xw
        gh = gh + b_hh
    size = xw.shape[-1] // 3
    i_r, i_z, i_n = ops.split(xw, size, -1)
    h_r, h_z, h_n = ops.split(gh, size, -1)
    reset = ops.sigmoid(i_r + h_r)
    update = ops.sigmoid(i_z + h_z)
    new = ops.tanh(i_n + reset * h_n)
    return new + update * (h - new)


_STEPS = {"RNN_TANH": _rnn_tanh_step, "RNN_RELU": _rnn_relu_step, "LSTM": _lstm_step, "GRU": _gru_step}


def _cell(mode, x, state, w_ih, w_hh, b_ih, b_hh):
    """One step of RNNCell / LSTMCell / GRUCell: the layer's step on a single input."""
    xw = _linear(x, w_ih, b_ih)
    if b_hh is not None and mode != "GRU":
        xw = xw + b_hh
    return _STEPS[mode](xw, state, ops.transpose(w_hh, (1, 0)), b_hh)


def rnn_tanh_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    return _cell("RNN_TANH", x, h, w_ih, w_hh, b_ih, b_hh)


def rnn_relu_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    return _cell("RNN_RELU", x, h, w_ih, w_hh, b_ih, b_hh)


def lstm_cell(x, state, w_ih, w_hh, b_ih, b_hh):
    return _cell("LSTM", x, state, w_ih, w_hh, b_ih, b_hh)


def gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    return _cell("GRU", x, h, w_ih, w_hh, b_ih, b_hh)


_CELLS = {"RNN_TANH": rnn_tanh_cell, "RNN_RELU": rnn_relu_cell, "LSTM": lstm_cell, "GRU": gru_cell}


def _reverse_within(x, lengths):
    """x (T, B, ...) with each batch column's first lengths[b] steps reversed."""
    steps = x.shape[0]
    if lengths is None:
        return ops.flip(x, (0,))
    perm = np.zeros((len(lengths), steps, steps), np.float32)
    for b, n in enumerate(lengths):
        for t in range(steps):
            perm[b, t, n - 1 - t if t < n else t] = 1.0
    moved = ops.transpose(x, (1, 0) + tuple(range(2, x.ndim)))
    flat = ops.reshape(moved, (moved.shape[0], steps, -1))
    out = ops.bmm(Tensor(perm, x.dtype), flat)
    out = ops.reshape(out, moved.shape)
    return ops.transpose(out, (1, 0) + tuple(range(2, x.ndim)))


class _RNNBase(_nn.Cell):
    """The stack of layers and directions shared by RNN, LSTM and GRU."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        who = type(self).__name__
        _check_positive_int(who, "input_size", input_size)
        _check_positive_int(who, "hidden_size", hidden_size)
        _check_positive_int(who, "num_layers", num_layers)
        _check_bool(who, "has_bias", has_bias)
        _check_bool(who, "batch_first", batch_first)
        _check_bool(who, "bidirectional", bidirectional)
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)):
            raise TypeError("For '%s', the 'dropout' must be float, but got %s." % (who, type(dropout).__name__))
        if not 0.0 <= dropout < 1.0:
            raise ValueError("For '%s', the 'dropout' must be a number in range [0, 1), but got %s." % (who, dropout))
        self.mode, self.cell_fn = mode, _CELLS[mode]
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.has_bias, self.batch_first, self.bidirectional = has_bias, batch_first, bidirectional
        self.dropout = float(dropout)
        self.num_directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        self.w_ih_list, self.w_hh_list, self.b_ih_list, self.b_hh_list = [], [], [], []
        for layer in range(num_layers):
            for direction in range(self.num_directions):
                in_size = input_size if layer == 0 else hidden_size * self.num_directions
                suffix = "l%d%s" % (layer, "_reverse" if direction else "")
                shapes = [("weight_ih_", (gate_size, in_size), self.w_ih_list),
                          ("weight_hh_", (gate_size, hidden_size), self.w_hh_list)]
                if has_bias:
                    shapes += [("bias_ih_", (gate_size,), self.b_ih_list), ("bias_hh_", (gate_size,), self.b_hh_list)]
                for prefix, shape, bucket in shapes:
                    param = _numpy_uniform(shape, hidden_size, prefix + suffix, dtype)
                    self.insert_param_to_cell(prefix + suffix, param)
                    bucket.append(param)
        if not has_bias:
            self.b_ih_list = self.b_hh_list = [None] * (num_layers * self.num_directions)

    def _zero_state(self, batch, dtype):
        shape = (self.num_layers * self.num_directions, batch, self.hidden_size)
        return ops.zeros(shape, dtype)

    def _direction(self, x, state, index, lengths, mask):
        """Runs one layer in one direction over x (T, B, I); returns outputs (T, B, H) and the final state."""
        w_ih, w_hh = self.w_ih_list[index], self.w_hh_list[index]
        b_ih, b_hh = self.b_ih_list[index], self.b_hh_list[index]
        steps, batch = x.shape[0], x.shape[1]
        # Every step's input product in one matrix product, not one per step; the recurrent weight
        # transposed once. RNN and LSTM add both biases there; GRU's b_hh stays in its step.
        xw = ops.matmul(ops.reshape(x, (steps * batch, x.shape[2])), ops.transpose(w_ih, (1, 0)))
        if b_ih is not None:
            xw = xw + (b_ih if self.mode == "GRU" else b_ih + b_hh)
        # One split into the steps' rows: its gradient is one concatenation, where indexing xw[t]
        # would add a whole zero-filled (T, B, G) gradient per step.
        xw_steps = ops.split(xw, batch, 0) if steps > 1 else (xw,)
        w_hh_t = ops.transpose(w_hh, (1, 0))
        step = _STEPS[self.mode]
        outputs = []
        for t in range(steps):
            new = step(xw_steps[t], state, w_hh_t, b_hh)
            if mask is not None:
                keep = mask[t]
                new = tuple(ops.select(keep, n, s) for n, s in zip(new, state)) if self.mode == "LSTM" \
                    else ops.select(keep, new, state)
            state = new
            h = state[0] if self.mode == "LSTM" else state
            outputs.append(h if mask is None else h * ops.cast(mask[t], h.dtype))
        return ops.stack(outputs), state

    def construct(self, x, hx=None, seq_length=None):
        who = type(self).__name__
        if x.ndim != 3:
            raise ValueError("For '%s', the 'x' must be a 3-D Tensor, but got %d-D." % (who, x.ndim))
        if x.shape[-1] != self.input_size:
            raise ValueError("For '%s', the last axis of 'x' must be input_size %d, but got shape %s."
                             % (who, self.input_size, tuple(x.shape)))
        if self.batch_first:
            x = ops.transpose(x, (1, 0, 2))
        steps, batch = x.shape[0], x.shape[1]
        if hx is None:
            zero = self._zero_state(batch, x.dtype)
            hx = (zero, zero) if self.mode == "LSTM" else zero
        expected = (self.num_layers * self.num_directions, batch, self.hidden_size)
        for h in (hx if self.mode == "LSTM" else (hx,)):
            if tuple(h.shape) != expected:
                raise ValueError("For '%s', the shape of 'hx' must be %s, but got %s." % (who, expected, tuple(h.shape)))
        lengths, mask = None, None
        if seq_length is not None:
            lengths = [int(n) for n in np.asarray(seq_length.asnumpy()).reshape(-1)]
            full = np.arange(steps)[:, None] < np.array(lengths)[None, :]
            mask = Tensor(np.broadcast_to(full[:, :, None], (steps, batch, self.hidden_size)).copy())
        finals_h, finals_c = [], []
        layer_input = x
        for layer in range(self.num_layers):
            outs = []
            for direction in range(self.num_directions):
                index = layer * self.num_directions + direction
                state = (hx[0][index], hx[1][index]) if self.mode == "LSTM" else hx[index]
                seq = layer_input if direction == 0 else _reverse_within(layer_input, lengths)
                out, state = self._direction(seq, state, index, lengths, mask)
                outs.append(out if direction == 0 else _reverse_within(out, lengths))
                finals_h.append(state[0] if self.mode == "LSTM" else state)
                if self.mode == "LSTM":
                    finals_c.append(state[1])
            layer_input = outs[0] if len(outs) == 1 else ops.concat(outs, -1)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                layer_input = ops.dropout(layer_input, p=self.dropout, training=True)
        output = ops.transpose(layer_input, (1, 0, 2)) if self.batch_first else layer_input
        h_n = ops.stack(finals_h)
        return (output, (h_n, ops.stack(finals_c))) if self.mode == "LSTM" else (output, h_n)

    def extend_repr(self):
        return "input_size={}, hidden_size={}, num_layers={}, has_bias={}, batch_first={}, dropout={}, " \
               "bidirectional={}".format(self.input_size, self.hidden_size, self.num_layers, self.has_bias,
                                         self.batch_first, self.dropout, self.bidirectional)


class RNN(_RNNBase):
    """h_t = nonlinearity(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh); returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        nonlinearity = _nonlinearity("RNN", kwargs.pop("nonlinearity", "tanh"))
        mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = nonlinearity


class LSTM(_RNNBase):
    """Gates i, f, g, o; c_t = f * c + i * g, h_t = o * tanh(c_t); returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(_RNNBase):
    """Gates r, z, n; n = tanh(x W_in + b_in + r * (h W_hn + b_hn)), h_t = n + z * (h - n); returns
    (output, h_n)."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class _CellBase(_nn.Cell):
    def __init__(self, mode, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__()
        who = type(self).__name__
        self.input_size = _check_positive_int(who, "input_size", input_size)
        self.hidden_size = _check_positive_int(who, "hidden_size", hidden_size)
        self.has_bias = _check_bool(who, "has_bias", has_bias)
        self.cell_fn = _CELLS[mode]
        gate_size = _GATES[mode] * hidden_size
        # MindSpore allocates all four with np.random.randn and then re-initializes each in turn;
        # the discarded draws still move NumPy's state, so they are made here too.
        shapes = [(gate_size, input_size), (gate_size, hidden_size)]
        if has_bias:
            shapes += [(gate_size,), (gate_size,)]
        for shape in shapes:
            np.random.randn(*shape)
        self.weight_ih = _cell_uniform(shapes[0], hidden_size, "weight_ih", dtype)
        self.weight_hh = _cell_uniform(shapes[1], hidden_size, "weight_hh", dtype)
        if has_bias:
            self.bias_ih = _cell_uniform(shapes[2], hidden_size, "bias_ih", dtype)
            self.bias_hh = _cell_uniform(shapes[3], hidden_size, "bias_hh", dtype)
        else:
            self.bias_ih = self.bias_hh = None

    def _check_input(self, x, h):
        who = type(self).__name__
        if x.ndim not in (1, 2) or x.shape[-1] != self.input_size:
            raise ValueError("For '%s', the 'x' must have shape (batch, %d) or (%d,), but got %s."
                             % (who, self.input_size, self.input_size, tuple(x.shape)))
        if h is not None and tuple(h.shape[:-1]) != tuple(x.shape[:-1]) or h is not None and \
                h.shape[-1] != self.hidden_size:
            raise ValueError("For '%s', the 'hx' must have shape %s, but got %s."
                             % (who, tuple(x.shape[:-1]) + (self.hidden_size,), tuple(h.shape)))

    def _weights(self):
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh


class RNNCell(_CellBase):
    """One step of RNN: h' = nonlinearity(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh", dtype=mstype.float32):
        nonlinearity = _nonlinearity("RNNCell", nonlinearity)
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, has_bias,
                         dtype)
        self.nonlinearity = nonlinearity

    def construct(self, x, hx=None):
        self._check_input(x, hx)
        hx = ops.zeros(tuple(x.shape[:-1]) + (self.hidden_size,), x.dtype) if hx is None else hx
        return self.cell_fn(x, hx, *self._weights())


class LSTMCell(_CellBase):
    """One step of LSTM over hx = (h, c); returns (h', c')."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__("LSTM", input_size, hidden_size, has_bias, dtype)

    def construct(self, x, hx=None):
        if hx is None:
            zero = ops.zeros(tuple(x.shape[:-1]) + (self.hidden_size,), x.dtype)
            hx = (zero, zero)
        self._check_input(x, hx[0])
        return self.cell_fn(x, tuple(hx), *self._weights())


class GRUCell(_CellBase):
    """One step of GRU: returns h'."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__("GRU", input_size, hidden_size, has_bias, dtype)

    def construct(self, x, hx=None):
        self._check_input(x, hx)
        hx = ops.zeros(tuple(x.shape[:-1]) + (self.hidden_size,), x.dtype) if hx is None else hx
        return self.cell_fn(x, hx, *self._weights())


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

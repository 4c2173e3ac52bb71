"""TransformerEncoderLayer, TransformerDecoderLayer, TransformerEncoder, TransformerDecoder and
Transformer of MindSpore 2.2 (PyTorch's definition: post- or pre-norm residual blocks of
MultiheadAttention and a two-Dense feed-forward), composed from Cells of mindspore.nn.

MindSpore's stacks deep-copy the given layer; gradstep's C++ Cells cannot be copied, so a layer
remembers its arguments and the stacks build fresh layers from them and copy the parameter
values, which gives the same result (every copy starts equal to the given layer); NumPy's global
state is put back afterwards, as a deep copy draws no initializer seeds."""
import numpy as np

import mindspore.nn as _nn
from mindspore import ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer

__all__ = ["TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder",
           "Transformer"]


def _activation(who, activation):
    if callable(activation) and not isinstance(activation, str):
        return activation
    if activation == "relu":
        return ops.relu
    if activation == "gelu":
        return ops.gelu
    raise ValueError("For '%s', the 'activation' must be 'relu', 'gelu' or a callable, but got %r."
                     % (who, activation))


class _Block(_nn.Cell):
    """What the two layers share: their arguments (kept for the stacks' copies), self-attention, the
    feed-forward block, _norms LayerNorms and Dropouts, and the residual wiring."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self._args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                      dtype)
        who = type(self).__name__
        norms = self._norms
        self.self_attn = _nn.MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                dtype=dtype)
        if norms == 3:
            # The decoder's attention over memory: made second, as MindSpore does (its draws come
            # before the feed-forward's).
            self.multihead_attn = _nn.MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                         dtype=dtype)
        self.linear1 = _nn.Dense(d_model, dim_feedforward)
        self.dropout = _nn.Dropout(p=dropout)
        self.linear2 = _nn.Dense(dim_feedforward, d_model)
        self.norm_first = norm_first
        for i in range(1, norms + 1):
            setattr(self, "norm%d" % i, _nn.LayerNorm((d_model,), epsilon=layer_norm_eps))
            setattr(self, "dropout%d" % i, _nn.Dropout(p=dropout))
        self.activation = _activation(who, activation)
        self.batch_first = batch_first

    def _dense(self, dense, x):
        shape = x.shape
        return ops.reshape(dense(ops.reshape(x, (-1, shape[-1]))), shape[:-1] + (-1,))

    def _ff_block(self, x):
        x = self._dense(self.linear2, self.dropout(self.activation(self._dense(self.linear1, x))))
        return self.dropout_last(x)

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)


class TransformerEncoderLayer(_Block):
    """x + self-attention, then x + feed-forward, each followed (or, norm_first, preceded) by LayerNorm."""

    _norms = 2

    @property
    def dropout_last(self):
        return self.dropout2

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x))


class TransformerDecoderLayer(_Block):
    """x + self-attention, x + attention over memory, x + feed-forward, with LayerNorms as the encoder's."""

    _norms = 3

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                         dtype)

    @property
    def dropout_last(self):
        return self.dropout3

    def _mha_block(self, x, memory, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, memory, memory, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False)[0]
        return self.dropout2(x)

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._ff_block(x))


def _clones(layer, num_layers):
    """num_layers layers made with layer's arguments, each starting from layer's parameter values."""
    if not isinstance(layer, (TransformerEncoderLayer, TransformerDecoderLayer)):
        raise TypeError("gradstep can stack only TransformerEncoderLayer / TransformerDecoderLayer, but got %s."
                        % type(layer).__name__)
    values = [p.asnumpy().copy() for p in layer.get_parameters()]
    layers = []
    # MindSpore deep-copies, which draws nothing: the rebuilt layers' initializer draws are undone
    # so that what is initialized next gets MindSpore's weights.
    numpy_state = np.random.get_state()
    try:
        for _ in range(num_layers):
            copy = type(layer)(*layer._args)
            for param, value in zip(copy.get_parameters(), values):
                param.set_data(ops.cast(ops.stop_gradient(_tensor(value)), param.dtype))
            copy.set_train(layer.training)
            layers.append(copy)
    finally:
        np.random.set_state(numpy_state)
    return _nn.CellList(layers)


def _tensor(value):
    from mindspore import Tensor
    return Tensor(value)


class TransformerEncoder(_nn.Cell):
    """num_layers copies of encoder_layer applied in turn, then norm if given."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers, self.norm = num_layers, norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        for layer in self.layers:
            x = layer(x, src_mask, src_key_padding_mask)
        return x if self.norm is None else self.norm(x)


class TransformerDecoder(_nn.Cell):
    """num_layers copies of decoder_layer applied in turn over memory, then norm if given."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers, self.norm = num_layers, norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        for layer in self.layers:
            x = layer(x, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)
        return x if self.norm is None else self.norm(x)


class Transformer(_nn.Cell):
    """An encoder over src and a decoder over tgt and the encoder's output, each ending in a LayerNorm."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-05,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, dtype)
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(*args), num_encoder_layers, _nn.LayerNorm((d_model,), epsilon=layer_norm_eps))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(*args), num_decoder_layers, _nn.LayerNorm((d_model,), epsilon=layer_norm_eps))
        # As MindSpore: every parameter of two or more dimensions starts again from xavier_uniform.
        for _, param in self.parameters_and_names():
            if param.ndim > 1:
                param.set_data(initializer("xavier_uniform", param.shape, param.dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        batch_axis = 0 if self.batch_first else 1
        if src.ndim == 3 and src.shape[batch_axis] != tgt.shape[batch_axis]:
            raise ValueError("For 'Transformer', the batch size of 'src' and 'tgt' must be equal, but got %d and %d."
                             % (src.shape[batch_axis], tgt.shape[batch_axis]))
        memory = self.encoder(src, src_mask, src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

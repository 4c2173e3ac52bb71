"""nn.MultiheadAttention of MindSpore 2.2 (PyTorch's definition) composed from mindspore.ops:
in_proj_weight (3E, E) / in_proj_bias, or q_proj_weight, k_proj_weight, v_proj_weight when kdim /
vdim differ; out_proj a Dense; optional bias_k / bias_v and a zero attention column; boolean
masks (True hides) or float masks (added to the scores)."""
import math

import mindspore.nn as _nn
from mindspore import Parameter, ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import XavierNormal, XavierUniform, initializer

__all__ = ["MultiheadAttention"]


def _check_int(who, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError("For '%s', the '%s' must be a positive int, but got %r." % (who, name, value))
    return value


def _additive(mask, dtype):
    """A boolean mask (True hides) as -inf / 0, a float mask as it is."""
    if mask is None:
        return None
    if mask.dtype == mstype.bool_:
        return ops.select(mask, ops.fill(dtype, mask.shape, -math.inf), ops.zeros(mask.shape, dtype))
    return ops.cast(mask, dtype)


class MultiheadAttention(_nn.Cell):
    """softmax(q k^T / sqrt(head_dim) + masks) v per head, then out_proj; returns (output, weights)
    with weights averaged over heads (average_attn_weights) or per head, None without need_weights."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, dtype=mstype.float32):
        super().__init__()
        who = "MultiheadAttention"
        self.embed_dim = _check_int(who, "embed_dim", embed_dim)
        self.num_heads = _check_int(who, "num_heads", num_heads)
        if embed_dim % num_heads:
            raise ValueError("For '%s', the 'embed_dim' must be divisible by 'num_heads', but got %d and %d."
                             % (who, embed_dim, num_heads))
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0.0 <= dropout < 1.0:
            raise ValueError("For '%s', the 'dropout' must be a float in range [0, 1), but got %r." % (who, dropout))
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.head_dim = embed_dim // num_heads
        self.dropout, self.batch_first, self.add_zero_attn = float(dropout), batch_first, add_zero_attn
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                            name="in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim), dtype),
                                           name="q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim), dtype),
                                           name="k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim), dtype),
                                           name="v_proj_weight")
            self.in_proj_weight = None
        self.in_proj_bias = Parameter(initializer("zeros", (3 * embed_dim,), dtype), name="in_proj_bias") \
            if has_bias else None
        # MindSpore 2.2's _Linear: a Dense with its default HeUniform(sqrt(5)) / Uniform(1 / sqrt(in))
        # draws, the bias kept (not zeroed as in PyTorch); bias_k / bias_v are XavierNormal.
        self.out_proj = _nn.Dense(embed_dim, embed_dim, has_bias=has_bias)
        self.out_proj.weight.set_dtype(dtype)
        if has_bias:
            self.out_proj.bias.set_dtype(dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), name="bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), name="bias_v")
        else:
            self.bias_k = self.bias_v = None

    def _projections(self):
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            w = self.in_proj_weight
            ws = (w[:e], w[e:2 * e], w[2 * e:])
        else:
            ws = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        bs = (None, None, None) if self.in_proj_bias is None else \
            (self.in_proj_bias[:e], self.in_proj_bias[e:2 * e], self.in_proj_bias[2 * e:])
        return ws, bs

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True):
        batched = query.ndim == 3
        if not batched:
            query, key, value = (ops.expand_dims(t, 1) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = ops.expand_dims(key_padding_mask, 0)
        elif self.batch_first:
            query, key, value = (ops.transpose(t, (1, 0, 2)) for t in (query, key, value))
        tgt_len, batch, e = query.shape
        h, d = self.num_heads, self.head_dim
        (wq, wk, wv), (bq, bk, bv) = self._projections()
        lin = lambda x, w, b: ops.matmul(x, ops.transpose(w, (1, 0))) + (0 if b is None else b)
        q, k, v = lin(query, wq, bq), lin(key, wk, bk), lin(value, wv, bv)
        attn_mask = _additive(attn_mask, q.dtype)
        key_padding_mask = _additive(key_padding_mask, q.dtype)
        if self.bias_k is not None:
            k = ops.concat([k, ops.tile(self.bias_k, (1, batch, 1))], 0)
            v = ops.concat([v, ops.tile(self.bias_v, (1, batch, 1))], 0)
            attn_mask = None if attn_mask is None else ops.pad(attn_mask, (0, 1))
            key_padding_mask = None if key_padding_mask is None else ops.pad(key_padding_mask, (0, 1))
        # (L, N, E) -> (N * H, L, D)
        heads = lambda x: ops.transpose(ops.reshape(x, (x.shape[0], batch * h, d)), (1, 0, 2))
        q, k, v = heads(q), heads(k), heads(v)
        if self.add_zero_attn:
            k = ops.concat([k, ops.zeros((batch * h, 1, d), k.dtype)], 1)
            v = ops.concat([v, ops.zeros((batch * h, 1, d), v.dtype)], 1)
            attn_mask = None if attn_mask is None else ops.pad(attn_mask, (0, 1))
            key_padding_mask = None if key_padding_mask is None else ops.pad(key_padding_mask, (0, 1))
        src_len = k.shape[1]
        scores = ops.bmm(q, ops.transpose(k, (0, 2, 1))) / math.sqrt(d)
        if attn_mask is not None:
            scores = scores + (attn_mask if attn_mask.ndim == 3 else ops.expand_dims(attn_mask, 0))
        if key_padding_mask is not None:
            scores = ops.reshape(scores, (batch, h, tgt_len, src_len)) + \
                ops.reshape(key_padding_mask, (batch, 1, 1, src_len))
            scores = ops.reshape(scores, (batch * h, tgt_len, src_len))
        weights = ops.softmax(scores, -1)
        if self.dropout > 0 and self.training:
            weights = ops.dropout(weights, p=self.dropout, training=True)
        out = ops.bmm(weights, v)                                          # (N * H, L, D)
        out = ops.reshape(ops.transpose(out, (1, 0, 2)), (tgt_len, batch, e))
        out = self.out_proj(ops.reshape(out, (tgt_len * batch, e)))
        out = ops.reshape(out, (tgt_len, batch, e))
        if not batched:
            out = ops.squeeze(out, 1)
        elif self.batch_first:
            out = ops.transpose(out, (1, 0, 2))
        if not need_weights:
            return out, None
        weights = ops.reshape(weights, (batch, h, tgt_len, src_len))
        if average_attn_weights:
            weights = ops.mean(weights, 1)
        if not batched:
            weights = ops.squeeze(weights, 0)
        return out, weights


_nn.MultiheadAttention = MultiheadAttention

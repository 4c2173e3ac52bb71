"""Forward + backward of each nn layer on gradstep, for gradstep issue 15's speed criterion (within
1.5x of PyTorch 1.13 CPU, one thread). layers_vs_torch.sh runs this and layers_torch.py and joins
their RESULT lines into a table; on its own: tests/bench/run_script layers_ms.py [--quick] [--only A,B].

A sample is one call of ms.value_and_grad(lambda x: layer(x).sum(), input, weights): the forward,
the sum, and the gradients of the input and of every trainable weight, as layers_torch.py's
`layer(x).sum().backward()` computes them. PyNative mode on one thread: OpenBLAS is pinned to one
thread by the core, and inter_op_parallel_num=1 keeps graph mode's executor (not used here) on one.
"""
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn

from layer_shapes import CASES, measure, report, selected

ms.set_context(mode=ms.PYNATIVE_MODE, inter_op_parallel_num=1)
ms.set_seed(0)


def build(name, a):
    """The layer, in training mode, as PyTorch's layer of layers_torch.py (same sizes, bias, padding)."""
    if name == "Conv1d":
        return nn.Conv1d(a["cin"], a["cout"], a["k"], pad_mode="pad", padding=a["pad"])
    if name == "Conv2d":
        return nn.Conv2d(a["cin"], a["cout"], a["k"], pad_mode="pad", padding=a["pad"])
    if name == "Conv3d":
        return nn.Conv3d(a["cin"], a["cout"], a["k"], pad_mode="pad", padding=a["pad"])
    if name == "Conv2dTranspose":
        return nn.Conv2dTranspose(a["cin"], a["cout"], a["k"], stride=a["stride"], pad_mode="pad", padding=a["pad"])
    if name == "BatchNorm2d":
        return nn.BatchNorm2d(a["c"])
    if name == "LayerNorm":
        return nn.LayerNorm((a["d"],), begin_norm_axis=-1, begin_params_axis=-1)
    if name == "GroupNorm":
        return nn.GroupNorm(a["groups"], a["c"])
    if name == "InstanceNorm2d":
        return nn.InstanceNorm2d(a["c"])
    if name == "Dense":
        return nn.Dense(a["cin"], a["cout"])
    if name == "Embedding":
        return nn.Embedding(a["vocab"], a["dim"])
    if name in ("LSTM", "GRU", "RNN"):
        return getattr(nn, name)(a["cin"], a["hidden"], batch_first=True)
    if name == "MultiheadAttention":
        return nn.MultiheadAttention(a["embed"], a["heads"], batch_first=True)
    if name == "TransformerEncoderLayer":
        return nn.TransformerEncoderLayer(a["d"], a["heads"], a["ff"], dropout=a["dropout"], batch_first=True)
    if name in ("MaxPool2d", "AvgPool2d"):
        return getattr(nn, name)(kernel_size=a["k"], stride=a["stride"])
    if name == "AdaptiveAvgPool2d":
        return nn.AdaptiveAvgPool2d(a["out"])
    if name == "Dropout":
        return nn.Dropout(p=a["p"])
    if name == "GELU":
        return nn.GELU()  # MindSpore's default: the tanh approximation (PyTorch side: approximate="tanh")
    if name in ("SiLU", "Softmax", "LogSoftmax"):
        return getattr(nn, name)()
    if name == "CrossEntropyLoss":
        return nn.CrossEntropyLoss()
    raise KeyError(name)


def first(out):
    """The output to sum: an RNN's output sequence, attention's output (not its weights)."""
    return out[0] if isinstance(out, tuple) else out


def bench(name, min_seconds):
    shape, a = CASES[name]
    layer = build(name, a)
    layer.set_train(True)
    rng = np.random.default_rng(0)
    weights = layer.trainable_params() or None
    if name == "Embedding":  # integer ids: only the table has a gradient
        ids = Tensor(rng.integers(0, a["vocab"], shape).astype(np.int32))
        grad = ms.value_and_grad(lambda i: layer(i).sum(), None, weights)
        return measure(lambda: grad(ids), min_seconds)
    x = Tensor(rng.standard_normal(shape).astype(np.float32))
    if name == "CrossEntropyLoss":
        labels = Tensor((np.arange(shape[0]) % a["classes"]).astype(np.int32))
        grad = ms.value_and_grad(lambda logits: layer(logits, labels), 0)
    elif name == "MultiheadAttention":  # self-attention: query = key = value
        grad = ms.value_and_grad(lambda q: first(layer(q, q, q)).sum(), 0, weights)
    else:
        grad = ms.value_and_grad(lambda v: first(layer(v)).sum(), 0, weights)
    return measure(lambda: grad(x), min_seconds)


names, seconds = selected(sys.argv)
for case in names:
    report(case, *bench(case, seconds))

"""The PyTorch side of layers_ms.py: the same layers, shapes and work, on PyTorch 1.13 CPU with one
thread. Run with Debian's interpreter (another python3 on PATH may not see python3-torch), with
OPENBLAS_NUM_THREADS=1 as layers_vs_torch.sh sets it: /usr/bin/python3 layers_torch.py [--quick].

A sample is `layer(x).sum().backward()` with the gradients set to None first, so backward writes
fresh gradients rather than adding to the last ones, as MindSpore's value_and_grad returns new ones.
"""
import sys

import numpy as np
import torch
from torch import nn

from layer_shapes import CASES, measure, report, selected

torch.set_num_threads(1)
torch.set_num_interop_threads(1)
torch.manual_seed(0)


def build(name, a):
    """The layer as layers_ms.py builds it on MindSpore (no bias where MindSpore's default has none)."""
    if name in ("Conv1d", "Conv2d", "Conv3d"):
        return getattr(nn, name)(a["cin"], a["cout"], a["k"], padding=a["pad"], bias=False)
    if name == "Conv2dTranspose":
        return nn.ConvTranspose2d(a["cin"], a["cout"], a["k"], stride=a["stride"], padding=a["pad"], bias=False)
    if name == "BatchNorm2d":
        return nn.BatchNorm2d(a["c"])
    if name == "LayerNorm":
        return nn.LayerNorm(a["d"])
    if name == "GroupNorm":
        return nn.GroupNorm(a["groups"], a["c"])
    if name == "InstanceNorm2d":  # MindSpore's has gamma and beta
        return nn.InstanceNorm2d(a["c"], affine=True)
    if name == "Dense":
        return nn.Linear(a["cin"], a["cout"])
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
        return nn.GELU(approximate="tanh")  # MindSpore's nn.GELU() default
    if name in ("Softmax", "LogSoftmax"):
        return getattr(nn, name)(dim=-1)
    if name in ("SiLU", "CrossEntropyLoss"):
        return getattr(nn, name)()
    raise KeyError(name)


def first(out):
    return out[0] if isinstance(out, tuple) else out


def bench(name, min_seconds):
    shape, a = CASES[name]
    layer = build(name, a)
    layer.train(True)
    rng = np.random.default_rng(0)
    if name == "Embedding":
        x = torch.from_numpy(rng.integers(0, a["vocab"], shape).astype(np.int64))
    else:
        x = torch.from_numpy(rng.standard_normal(shape).astype(np.float32)).requires_grad_(True)
    if name == "CrossEntropyLoss":
        labels = torch.from_numpy((np.arange(shape[0]) % a["classes"]).astype(np.int64))
        forward = lambda: layer(x, labels)  # noqa: E731
    elif name == "MultiheadAttention":
        forward = lambda: first(layer(x, x, x)).sum()  # noqa: E731
    else:
        forward = lambda: first(layer(x)).sum()  # noqa: E731

    def step():
        x.grad = None
        layer.zero_grad(set_to_none=True)
        forward().backward()
    return measure(step, min_seconds)


names, seconds = selected(sys.argv)
for case in names:
    report(case, *bench(case, seconds))

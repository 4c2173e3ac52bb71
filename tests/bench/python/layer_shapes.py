"""The layers of gradstep issue 15's speed criterion and the shape each is timed at, shared by
layers_ms.py and layers_torch.py so both sides build the same layer on the same input.
Shapes are of the size a small CNN / RNN / transformer trains at on a CPU (batch 8-256)."""

# name: (input shape, layer arguments). Convolutions and pools are NCHW (NCDHW, NCL); RNNs and
# attention take (batch, seq, feature) with batch_first; no bias where MindSpore's default has none.
CASES = {
    "Conv1d": ((32, 16, 128), dict(cin=16, cout=32, k=3, pad=1)),
    "Conv2d": ((32, 16, 32, 32), dict(cin=16, cout=32, k=3, pad=1)),
    "Conv3d": ((8, 8, 16, 16, 16), dict(cin=8, cout=16, k=3, pad=1)),
    "Conv2dTranspose": ((32, 16, 16, 16), dict(cin=16, cout=8, k=4, stride=2, pad=1)),
    "BatchNorm2d": ((32, 64, 16, 16), dict(c=64)),
    "LayerNorm": ((32, 128, 256), dict(d=256)),
    "GroupNorm": ((32, 64, 16, 16), dict(groups=8, c=64)),
    "InstanceNorm2d": ((32, 64, 16, 16), dict(c=64)),
    "Dense": ((128, 512), dict(cin=512, cout=256)),
    "Embedding": ((32, 64), dict(vocab=10000, dim=128)),
    "LSTM": ((32, 20, 64), dict(cin=64, hidden=128)),
    "GRU": ((32, 20, 64), dict(cin=64, hidden=128)),
    "RNN": ((32, 20, 64), dict(cin=64, hidden=128)),
    "MultiheadAttention": ((16, 32, 128), dict(embed=128, heads=8)),
    "TransformerEncoderLayer": ((16, 32, 128), dict(d=128, heads=8, ff=512, dropout=0.1)),
    "MaxPool2d": ((32, 32, 32, 32), dict(k=2, stride=2)),
    "AvgPool2d": ((32, 32, 32, 32), dict(k=2, stride=2)),
    "AdaptiveAvgPool2d": ((32, 64, 28, 28), dict(out=7)),
    "Dropout": ((32, 128, 256), dict(p=0.5)),
    "GELU": ((32, 128, 256), dict()),
    "SiLU": ((32, 128, 256), dict()),
    "Softmax": ((32, 128, 256), dict()),
    "LogSoftmax": ((32, 128, 256), dict()),
    "CrossEntropyLoss": ((256, 1000), dict(classes=1000)),
}

MIN_SECONDS = 0.5  # sampling time per layer (--quick: a fifth); at least MIN_SAMPLES one-call samples
MIN_SAMPLES = 10
WARMUP = 3


def selected(argv):
    """The case names to run: --only A,B,... or all; and the sampling time (--quick shortens it)."""
    names = list(CASES)
    if "--only" in argv:
        names = argv[argv.index("--only") + 1].split(",")
    return names, MIN_SECONDS / 5 if "--quick" in argv else MIN_SECONDS


def measure(fn, min_seconds):
    """Median and minimum of one-call samples in ms, after warm-up, garbage collector off (as timeit)."""
    import gc
    import statistics
    import time
    for _ in range(WARMUP):
        fn()
    gc.collect()
    gc.disable()
    try:
        samples = []
        end = time.perf_counter() + min_seconds
        while len(samples) < MIN_SAMPLES or time.perf_counter() < end:
            t0 = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - t0) * 1e3)
    finally:
        gc.enable()
    return statistics.median(samples), min(samples)


def report(name, median_ms, min_ms):
    """One machine-readable line per layer; layers_vs_torch.sh joins the two sides' lines."""
    shape = "x".join(str(n) for n in CASES[name][0])
    print(f"RESULT\t{name}\t{shape}\t{median_ms:.4f}\t{min_ms:.4f}", flush=True)

"""mindspore.experimental (MindSpore 2.2): PyTorch-style optimizers and learning-rate schedulers
in mindspore.experimental.optim."""
from mindspore.experimental import optim  # noqa: F401

__all__ = ["optim"]

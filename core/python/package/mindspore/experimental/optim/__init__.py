"""mindspore.experimental.optim: Optimizer, Adam, AdamW, SGD and lr_scheduler, with PyTorch's
parameter groups and update rules as MindSpore 2.2 defines them."""
from mindspore.experimental.optim import lr_scheduler  # noqa: F401
from mindspore.experimental.optim.adam import Adam
from mindspore.experimental.optim.adamw import AdamW
from mindspore.experimental.optim.optimizer import Optimizer
from mindspore.experimental.optim.sgd import SGD

__all__ = ["Optimizer", "Adam", "AdamW", "SGD", "lr_scheduler"]

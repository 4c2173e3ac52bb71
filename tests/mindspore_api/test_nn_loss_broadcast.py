"""HuberLoss broadcasts logits against labels ('none' keeps the broadcast shape, its gradient sums
back to the logits' shape); MultilabelMarginLoss is the class MindSpore names so."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn
from _check import close, raises

logits = np.array([1.0, 2.0, 3.0], np.float32)
labels = np.array([[1.0, 1.0, 1.0], [1.0, 2.0, 0.5]], np.float32)
d = np.abs(logits - labels)
per = np.where(d < 1.5, 0.5 * d * d, 1.5 * (d - 0.75))
close(nn.HuberLoss(reduction="none", delta=1.5)(Tensor(logits), Tensor(labels)), per)
close(nn.HuberLoss(delta=1.5)(Tensor(logits), Tensor(labels)), per.mean())
g = ms.grad(lambda t: nn.HuberLoss(reduction="sum", delta=1.5)(t, Tensor(labels)))(Tensor(logits))
close(g, np.where(d < 1.5, logits - labels, 1.5 * np.sign(logits - labels)).sum(0))
raises(ValueError, nn.HuberLoss(), Tensor(logits), Tensor(np.ones((2, 4), np.float32)))

loss = nn.MultilabelMarginLoss()
x = Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]], np.float32))
target = Tensor(np.array([[1, 2, 0, 3], [2, 3, -1, 1]], np.int32))
close(loss(x, target), 0.325)
assert nn.MultiLabelMarginLoss is nn.MultilabelMarginLoss
raises(ValueError, loss, x, Tensor(np.array([[4, -1, 0, 0]] * 2, np.int32)), match="'MultilabelMarginLoss'")

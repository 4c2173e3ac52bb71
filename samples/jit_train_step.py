"""The whole training step compiled: forward, backward and update in one graph.

What it teaches: MindSpore's recommended training step wraps value_and_grad and the optimizer in
one `@ms.jit` function. The compiler then differentiates the forward function at compile time
(the backward pass becomes graph nodes next to the forward ones) and turns the optimizer's
in-place Parameter updates into graph nodes ordered as MindSpore's auto-monad orders them: every
read of a weight before the update sees the old value. One call of `train_step` is one graph run.
Step into it in the debugger: the graph view shows the forward nodes (Net/fc1/...), the backward
nodes (Gradients/...) and the Momentum update (Momentum/...) of the same compiled graph, with
their source lines in `forward_fn` and `Net.construct`. `mindspore._jit_stats()` shows one compile
and no fallback (nothing of the step ran in Python). Run it with `gradstep run --mode pynative`
too: the losses are the same.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_seed(5)
rng = np.random.default_rng(5)
data = Tensor(rng.normal(size=(64, 6)).astype(np.float32))
label = Tensor((rng.normal(size=64) > 0).astype(np.int32) + (rng.normal(size=64) > 1).astype(np.int32))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 16)
        self.fc2 = nn.Dense(16, 3)

    def construct(self, x):
        return self.fc2(ops.relu(self.fc1(x)))


net = Net()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)


def forward_fn(data, label):
    logits = net(data)
    loss = loss_fn(logits, label)
    return loss, logits


grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)


@ms.jit
def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)
    return loss


first = None
for step in range(30):
    loss = float(train_step(data, label))
    first = loss if first is None else first
    if step % 10 == 0 or step == 29:
        print(f"step {step:2d}  loss {loss:.5f}")
assert loss < first, "the loss should go down"
assert optimizer.global_step == 30, "each run of the compiled step counts one update"
stats = ms._jit_stats()
print(f"compiles {stats['compiles']}, fallbacks {stats['fallbacks']}")
# Under `--mode pynative` nothing compiles; otherwise the step is one graph, none of it in Python.
assert stats["fallbacks"] == 0 and stats["compiles"] <= 1, stats

"""The has_aux pitfall: a forward function that returns (loss, logits).

What it teaches: without has_aux=True, value_and_grad differentiates the SUM of all outputs, so
the gradients silently include d(sum(logits)) and training follows the wrong direction. With
has_aux=True only the first output is differentiated and the others come back as auxiliary data
(always a tuple). The script trains a few steps the right way, then computes both and prints
how far apart they are. `gradstep compare samples/has_aux_pitfall.py --what has-aux --steps 5`
shows where forgetting has_aux leads: the gradients part at step 1, and from step 2 on the loss
stops falling (the extra term shifts every logit alike, which the softmax ignores).
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_seed(2)
net = nn.Dense(4, 3)
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

rng = np.random.default_rng(2)
x = Tensor(rng.normal(size=(8, 4)).astype(np.float32))
y = Tensor(rng.integers(0, 3, size=(8,)).astype(np.int32))


def forward_fn(data, label):
    logits = net(data)
    loss = loss_fn(logits, label)
    return loss, logits


params = net.trainable_params()
wrong = ms.value_and_grad(forward_fn, None, params)                # the pitfall
right = ms.value_and_grad(forward_fn, None, params, has_aux=True)  # what was meant

optimizer = nn.Adam(params, learning_rate=0.05)
for step in range(5):
    (loss, _), grads = right(x, y)
    optimizer(grads)
    print(f"step {step + 1}  loss {float(loss):.6f}")

(loss_w, logits_w), grads_w = wrong(x, y)
(loss_r, logits_r), grads_r = right(x, y)
print(f"loss (both): {float(loss_r):.6f}")
for p, gw, gr in zip(params, grads_w, grads_r):
    diff = float(ops.norm(gw - gr))
    print(f"{p.name:8s} |grad| without has_aux {float(ops.norm(gw)):.5f}  "
          f"with has_aux {float(ops.norm(gr)):.5f}  difference {diff:.5f}")
assert float(ops.norm(grads_w[1] - grads_r[1])) > 1.0, "the logits term should show up in the bias grad"

# grad (not value_and_grad) with has_aux returns (gradients, aux) and aux is a tuple.
grads, (logits,) = ms.grad(forward_fn, None, params, has_aux=True)(x, y)
print("grad(..., has_aux=True) aux:", logits.shape)

"""A port of torch_mlp.py that writes nn.GELU() as PyTorch's code does: MindSpore's GELU uses the
tanh approximation by default (approximate=True), PyTorch's the exact erf form (approximate='none').
gradstep migrate reports a forward divergence at the GELU (layer 1) naming approximate."""
import numpy as np
import mindspore as ms
from mindspore import nn

rng = np.random.default_rng(1)
features = ms.Tensor(rng.standard_normal((32, 20)).astype(np.float32))
labels = ms.Tensor(rng.integers(0, 3, 32).astype(np.int32))

net = nn.SequentialCell([nn.Dense(20, 64), nn.GELU(), nn.Dropout(p=0.2), nn.Dense(64, 3)])
net.set_train()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.Adam(net.trainable_params(), learning_rate=1e-3)


def forward(x, y):
    return loss_fn(net(x), y)


grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
for step in range(3):
    loss, grads = grad_fn(features, labels)
    optimizer(grads)
    print("step %d loss %.4f" % (step, float(loss.asnumpy())))

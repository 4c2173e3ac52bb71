"""A port of torch_cnn_adam.py with one pitfall: torch.optim.Adam(weight_decay=...) written as
nn.AdamWeightDecay, which decays the weights apart from the gradient (AdamW's rule) where
PyTorch's Adam adds weight_decay * w to it. `gradstep migrate` names the two definitions."""
import numpy as np
import mindspore as ms
from mindspore import nn

rng = np.random.default_rng(2)
images = ms.Tensor(rng.standard_normal((8, 3, 16, 16)).astype(np.float32))
labels = ms.Tensor(rng.integers(0, 10, 8).astype(np.int32))

network = nn.SequentialCell(
    nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1, has_bias=True),
    nn.BatchNorm2d(8, eps=1e-3, momentum=0.9),
    nn.ReLU(),
    nn.MaxPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Dense(8 * 8 * 8, 10),
)
network.set_train(True)
criterion = nn.CrossEntropyLoss()
optimizer = nn.AdamWeightDecay(network.trainable_params(), learning_rate=1e-2, weight_decay=1e-2)


def loss_of(batch, target):
    return criterion(network(batch), target)


step_fn = ms.value_and_grad(loss_of, None, optimizer.parameters)
for epoch in range(3):
    loss, grads = step_fn(images, labels)
    optimizer(grads)
    print("step %d loss %.4f" % (epoch, float(loss.asnumpy())))

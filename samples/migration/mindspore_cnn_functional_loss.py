"""A port of torch_cnn.py that computes its loss with a function, ops.cross_entropy, instead of a
loss Cell, and with one pitfall: reduction='sum' where PyTorch's CrossEntropyLoss averages over the
batch, so the loss and every gradient are 16 times PyTorch's. `gradstep migrate` takes the loss and
labels at the function's call and names both reductions."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops

ms.set_seed(0)
rng = np.random.default_rng(0)
images = ms.Tensor(rng.standard_normal((16, 1, 28, 28)).astype(np.float32))
labels = ms.Tensor(rng.integers(0, 10, 16).astype(np.int32))


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid", has_bias=True)
        self.bn1 = nn.BatchNorm2d(6, momentum=0.9)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True)
        self.act2 = nn.LeakyReLU(alpha=0.01)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 4 * 4, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.pool(self.act2(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


net = LeNet5()
net.set_train()
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)


def forward(x, y):
    logits = net(x)
    return ops.cross_entropy(logits, y, reduction="sum")


grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
for step in range(3):
    loss, grads = grad_fn(images, labels)
    optimizer(grads)
    print("step %d loss %.4f" % (step, float(loss.asnumpy())))

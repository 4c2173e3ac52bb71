"""A port of torch_cnn.py with one pitfall: PyTorch's one MaxPool2d(2), called twice, written as two
Cells, the second as nn.MaxPool2d(kernel_size=2) whose stride defaults to 1 (PyTorch's to the
kernel size). `gradstep migrate` compares PyTorch's second call of pool with pool2 and names the
strides there."""
import numpy as np
import mindspore as ms
from mindspore import nn

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
        self.pool1 = nn.MaxPool2d(2, 2)
        self.pool2 = nn.MaxPool2d(kernel_size=2)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True)
        self.act2 = nn.LeakyReLU(alpha=0.01)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 4 * 4, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool1(self.relu(self.bn1(self.conv1(x))))
        x = self.pool2(self.act2(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


net = LeNet5()
net.set_train()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)


def forward(x, y):
    return loss_fn(net(x), y)


grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
for step in range(3):
    loss, grads = grad_fn(images, labels)
    optimizer(grads)
    print("step %d loss %.4f" % (step, float(loss.asnumpy())))

"""The LeNet5 the Python benchmarks train (1 x 32 x 32 inputs, 10 classes), as samples/lenet5_digits.py
builds it: the Dense layers drawn from Normal(0.02) unless `dense_init` says otherwise (None: Dense's
own default)."""
from mindspore import nn
from mindspore.common.initializer import Normal

_NORMAL = object()


class LeNet5(nn.Cell):
    def __init__(self, dense_init=_NORMAL):
        super().__init__()
        init = {"weight_init": Normal(0.02)} if dense_init is _NORMAL else (
            {} if dense_init is None else {"weight_init": dense_init})
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(400, 120, **init)
        self.fc2 = nn.Dense(120, 84, **init)
        self.fc3 = nn.Dense(84, 10, **init)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

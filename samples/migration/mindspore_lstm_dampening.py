"""A port of torch_lstm.py with one pitfall: SGD(momentum=0.9, dampening=0.1) written as
nn.Momentum, which has no dampening. The first update is the same (the momentum buffer starts as
the gradient); the second differs: `gradstep migrate --steps 2` names dampening."""
import numpy as np
import mindspore as ms
from mindspore import nn

rng = np.random.default_rng(2)
sequences = ms.Tensor(rng.standard_normal((8, 5, 6)).astype(np.float32))
labels = ms.Tensor(rng.integers(0, 3, 8).astype(np.int32))


class Classifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 12, batch_first=True)
        self.fc = nn.Dense(12, 3)

    def construct(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1])


net = Classifier()
net.set_train()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)


def forward(x, y):
    return loss_fn(net(x), y)


grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
for step in range(3):
    loss, grads = grad_fn(sequences, labels)
    optimizer(grads)
    print("step %d loss %.4f" % (step, float(loss.asnumpy())))

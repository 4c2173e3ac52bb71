"""A port of torch_lstm.py that leaves out batch_first=True: MindSpore's LSTM, like PyTorch's,
then reads the input as (time, batch, features), so the (8, 5, 6) batch runs as 8 steps of 5
sequences. Its output keeps the shape (8, 5, 12) with other values (h and c come out as (1, 5, 12)
instead of (1, 8, 12)), and out[:, -1] still fits the Dense layer, so nothing fails: gradstep
migrate reports the divergence at the LSTM's output (element 0), naming batch_first."""
import numpy as np
import mindspore as ms
from mindspore import nn

rng = np.random.default_rng(2)
sequences = ms.Tensor(rng.standard_normal((8, 5, 6)).astype(np.float32))
labels = ms.Tensor(rng.integers(0, 3, 8).astype(np.int32))


class Classifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 12)
        self.fc = nn.Dense(12, 3)

    def construct(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1])


net = Classifier()
net.set_train()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1, momentum=0.9, dampening=0.1)


def forward(x, y):
    return loss_fn(net(x), y)


grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
for step in range(3):
    loss, grads = grad_fn(sequences, labels)
    optimizer(grads)
    print("step %d loss %.4f" % (step, float(loss.asnumpy())))

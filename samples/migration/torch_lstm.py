"""A small PyTorch sequence classifier: an LSTM whose last output feeds a Linear layer, trained with
SGD. The LSTM returns (output, (h, c)): gradstep migrate compares the three tensors one by one
against the port's (mindspore_lstm.py, faithful; mindspore_lstm_batch_first.py, a pitfall)."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(2)
sequences = torch.tensor(rng.standard_normal((8, 5, 6)), dtype=torch.float32)  # batch, time, features
labels = torch.tensor(rng.integers(0, 3, 8), dtype=torch.int64)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 12, batch_first=True)
        self.fc = nn.Linear(12, 3)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1])


model = Classifier()
model.train()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, dampening=0.1)
for step in range(3):
    optimizer.zero_grad()
    loss = loss_fn(model(sequences), labels)
    loss.backward()
    optimizer.step()
    print("step %d loss %.4f" % (step, loss.item()))

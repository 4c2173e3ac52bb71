"""Model.train with callbacks and checkpoints on the handwritten digits.

What it teaches: the high-level training loop. Model groups a network, its loss, an optimizer
(Momentum with a cosine-decayed learning rate per step, nn.cosine_decay_lr) and the Accuracy
metric; LossMonitor prints the loss, ModelCheckpoint writes MindSpore .ckpt files
(digits-EPOCH_STEP.ckpt, keeping the last two) into a temporary directory. A fresh network then
loads the newest checkpoint with load_checkpoint and is evaluated: it scores exactly what the
trained one scores, because a checkpoint holds every trained value bit for bit.
"""
import os
import tempfile

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.train import Accuracy, CheckpointConfig, LossMonitor, Model, ModelCheckpoint

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
BATCH = 32
EPOCHS = 2


class DigitsMLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(32 * 32, 64)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(64, 10)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(self.flatten(x))))


def normalise(image):
    return ((image.astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)


def create_dataset(usage, shuffle):
    dataset = ds.MnistDataset(DATA_DIR, usage=usage, shuffle=False)
    dataset = dataset.map(normalise, input_columns="image")
    dataset = dataset.map(lambda label: label.astype(np.int32), input_columns="label")
    if shuffle:
        dataset = dataset.shuffle(buffer_size=2000)
    return dataset.batch(BATCH, drop_remainder=shuffle)


ms.set_seed(0)
train_set = create_dataset("train", shuffle=True)
test_set = create_dataset("test", shuffle=False)
steps = train_set.get_dataset_size()

net = DigitsMLP()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
lr = nn.cosine_decay_lr(0.005, 0.05, steps * EPOCHS, steps, EPOCHS)
optimizer = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
model = Model(net, loss_fn, optimizer, metrics={"accuracy": Accuracy()})

with tempfile.TemporaryDirectory() as directory:
    config = CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=2)
    checkpoint = ModelCheckpoint(prefix="digits", directory=directory, config=config)
    model.train(EPOCHS, train_set, callbacks=[LossMonitor(steps // 4), checkpoint])
    trained = model.eval(test_set)["accuracy"]
    print("checkpoints:", sorted(os.listdir(directory)))

    restored = DigitsMLP()
    params = ms.load_checkpoint(checkpoint.latest_ckpt_file_name, net=restored)
    print("loaded %d tensors, e.g. %s" % (len(params), sorted(params)[:3]))
    again = Model(restored, loss_fn, metrics={"accuracy": Accuracy()}).eval(test_set)["accuracy"]

print("accuracy of the trained network %.4f, of the restored one %.4f" % (trained, again))
assert trained == again, "the checkpoint did not restore the trained network"

"""train.BackupAndRestore: backup_dir/backup.ckpt holds the train network's parameters of every
save_freq-th epoch, a training that finds it starts from it, and it is deleted at the end unless
delete_checkpoint is False."""
import os
import tempfile

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.train import BackupAndRestore, Callback, Model

from _check import raises

assert ms.BackupAndRestore is BackupAndRestore and ms.train.callback.BackupAndRestore is BackupAndRestore
rng = np.random.RandomState(3)
data = ds.NumpySlicesDataset({"x": rng.randn(8, 4).astype(np.float32), "y": rng.randn(8, 2).astype(np.float32)},
                             shuffle=False).batch(4)


def model_of(net, lr):
    return Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), lr, 0.9))


class Record(Callback):
    """The Dense weight after each epoch."""
    def __init__(self, net):
        super().__init__()
        self.net, self.weights = net, []

    def on_train_epoch_end(self, run_context):
        self.weights.append(self.net.weight.asnumpy().copy())


backup_dir = tempfile.mkdtemp()
backup_file = os.path.join(backup_dir, "backup.ckpt")

# save_freq=2 over 3 epochs: the file holds epoch 2's parameters and stays (delete_checkpoint=False).
net = nn.Dense(4, 2)
record = Record(net)
model_of(net, 0.1).train(3, data, callbacks=[record, BackupAndRestore(backup_dir, 2, False)],
                         dataset_sink_mode=False)
saved = ms.load_checkpoint(backup_file)
assert np.array_equal(saved["weight"].asnumpy(), record.weights[1])
assert not np.array_equal(record.weights[1], record.weights[2])

# A new training (learning rate 0: nothing moves) starts from the backup and deletes it at the end.
fresh = nn.Dense(4, 2)
model_of(fresh, 0.0).train(1, data, callbacks=BackupAndRestore(backup_dir), dataset_sink_mode=False)
assert np.array_equal(fresh.weight.asnumpy(), record.weights[1])
assert not os.path.exists(backup_file)

raises(ValueError, BackupAndRestore, backup_dir, save_freq=0, match="'save_freq'")
raises(TypeError, BackupAndRestore, backup_dir, save_freq="step")
raises(TypeError, BackupAndRestore, backup_dir, delete_checkpoint=1, match="'delete_checkpoint'")
raises(ValueError, BackupAndRestore, 3)

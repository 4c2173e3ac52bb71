"""mindspore.train: Model, the callbacks and the metrics (also at the top level, mindspore.Model,
mindspore.LossMonitor, mindspore.Accuracy, ..., as MindSpore 2.2 exports them).

Not provided: checkpoints (ModelCheckpoint, CheckpointConfig, save_checkpoint, load_checkpoint,
...), summaries, amp (build_train_network), loss scale managers, DatasetHelper and data_sink.
"""
import mindspore as _ms
from mindspore.train import callback, metrics
from mindspore.train.callback import (Callback, EarlyStopping, History, LambdaCallback, LossMonitor,
                                      ReduceLROnPlateau, RunContext, TimeMonitor)
from mindspore.train.metrics import *  # noqa: F401,F403
from mindspore.train.model import Model

__all__ = ["Model"]
__all__.extend(callback.__all__)
__all__.extend(metrics.__all__)

for _name in __all__:
    setattr(_ms, _name, globals()[_name])
del _name

"""mindspore.train: Model, the callbacks and the metrics (also at the top level, mindspore.Model,
mindspore.LossMonitor, mindspore.Accuracy, ..., as MindSpore 2.2 exports them).

Checkpoints are MindSpore's .ckpt files (serialization.py); export / load write and read MINDIR
files, run by nn.GraphCell (_deployment.py, _mindir.py; AIR and ONNX are refused); amp and the loss scale managers are amp.py and
loss_scale_manager.py; SummaryRecord and SummaryCollector write MindSpore's summary files
(summary/, callback/_summary_collector.py). Not provided: DatasetHelper.
"""
import mindspore as _ms
from mindspore.train import callback, metrics, serialization
from mindspore.train.callback import (BackupAndRestore, Callback, CheckpointConfig, EarlyStopping, History, LambdaCallback,
                                      SummaryCollector,
                                      LearningRateScheduler, LossMonitor, ModelCheckpoint,
                                      ReduceLROnPlateau, RunContext, TimeMonitor)
from mindspore.train.metrics import *  # noqa: F401,F403
from mindspore.train.model import Model
from mindspore.train import amp
from mindspore.train.amp import build_train_network
from mindspore.train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from mindspore.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint
from mindspore.train._deployment import export, load
from mindspore.train.summary import SummaryRecord

__all__ = ["Model", "export", "load", "build_train_network", "SummaryRecord", "LossScaleManager", "FixedLossScaleManager",
           "DynamicLossScaleManager"]
__all__.extend(serialization.__all__)
__all__.extend(callback.__all__)
__all__.extend(metrics.__all__)

for _name in __all__:
    setattr(_ms, _name, globals()[_name])
del _name

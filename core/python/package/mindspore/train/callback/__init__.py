"""mindspore.train.callback: Callback, RunContext and the callbacks Model runs.

ModelCheckpoint / CheckpointConfig (MindSpore's checkpoint files), SummaryCollector,
SummaryLandscape, OnRequestExit, BackupAndRestore and LearningRateScheduler are not provided.
"""
from mindspore.train.callback._callback import Callback, RunContext
from mindspore.train.callback._callback import CallbackManager as _CallbackManager
from mindspore.train.callback._callback import InternalCallbackParam as _InternalCallbackParam
from mindspore.train.callback._loss_monitor import LossMonitor
from mindspore.train.callback._time_monitor import TimeMonitor
from mindspore.train.callback._history import History
from mindspore.train.callback._lambda_callback import LambdaCallback
from mindspore.train.callback._early_stop import EarlyStopping
from mindspore.train.callback._reduce_lr_on_plateau import ReduceLROnPlateau

__all__ = ["Callback", "LossMonitor", "TimeMonitor", "RunContext", "History", "LambdaCallback",
           "ReduceLROnPlateau", "EarlyStopping"]

"""mindspore.train.callback: Callback, RunContext and the callbacks Model runs.

SummaryLandscape and OnRequestExit are not provided.
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
from mindspore.train.callback._checkpoint import CheckpointConfig, ModelCheckpoint
from mindspore.train.callback._lr_scheduler_callback import LearningRateScheduler
from mindspore.train.callback._summary_collector import SummaryCollector
from mindspore.train.callback._backup_and_restore import BackupAndRestore

__all__ = ["Callback", "LossMonitor", "TimeMonitor", "RunContext", "History", "LambdaCallback",
           "ReduceLROnPlateau", "EarlyStopping", "ModelCheckpoint", "CheckpointConfig", "LearningRateScheduler", "SummaryCollector",
           "BackupAndRestore"]

"""TimeMonitor: prints each epoch's time and time per step."""
import time

from mindspore.train._checks import check_bool, check_positive_int
from mindspore.train.callback._callback import Callback

__all__ = ["TimeMonitor"]


class TimeMonitor(Callback):
    """Prints "Train epoch time: T ms, per step time: t ms" at the end of each epoch (the steps are
    the run's batch_num, else data_size); data_time=True adds the time spent waiting for data."""

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        self.data_size = data_size
        self.epoch_time = time.time()
        self.data_time = check_bool(data_time, "data_time")
        self.data_time_sum = 0.0
        self.data_time_start = 0.0

    @staticmethod
    def _sink(run_context):
        return run_context.original_args().get("dataset_sink_mode", False)

    def on_train_step_begin(self, run_context):
        if self.data_time and not self._sink(run_context):
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context):
        if self.data_time and not self._sink(run_context):
            self.data_time_start = time.time()

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()
        if self.data_time and not self._sink(run_context):
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context):
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        mode = cb_params.get("mode", "")
        step_size = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        check_positive_int(step_size)
        line = "{} epoch time: {:5.3f} ms, per step time: {:5.3f} ms".format(
            mode.title(), epoch_ms, epoch_ms / step_size)
        if self.data_time and not self._sink(run_context):
            line += " (data time: {:5.3f} ms)".format(self.data_time_sum * 1000 / step_size)
        print(line, flush=True)

"""LossMonitor: prints "epoch: E step: S, loss is L" every per_print_times steps."""
import numpy as np

from mindspore.train._checks import check_non_negative_int
from mindspore.train.callback._callback import Callback, _handle_loss

__all__ = ["LossMonitor"]


class LossMonitor(Callback):
    """Prints the training loss every per_print_times steps (0: never) and stops the training with a
    ValueError when the loss is NaN or infinite; in Model.fit also prints the evaluation's metrics
    at the end of each epoch that evaluated."""

    def __init__(self, per_print_times=1):
        super().__init__()
        check_non_negative_int(per_print_times)
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.get("cur_epoch_num", 1)
        loss = _handle_loss(cb_params.net_outputs)
        cur_step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError("In epoch: {} step: {}, loss is NAN or INF, training process cannot continue, "
                             "terminating training.".format(cur_epoch_num, cur_step_in_epoch))
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            # A new run (or eval) counts its steps from 1 again.
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= max(self._per_print_times,
                                             cb_params.batch_num if cb_params.get("dataset_sink_mode") else 1)
        if self._per_print_times != 0 and \
                cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print("epoch: %s step: %s, loss is %s" % (cur_epoch_num, cur_step_in_epoch, loss), flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print("Eval result: epoch %d, metrics: %s" % (cb_params.cur_epoch_num, metrics))

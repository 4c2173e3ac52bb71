"""History: records the network's output (the loss) and the metrics at the end of each epoch."""
from mindspore.train._checks import scalar as _scalar
from mindspore.train.callback._callback import Callback

__all__ = ["History"]


class History(Callback):
    """After training, `epoch` is {"epoch": [1, 2, ...]} and `history` maps "net_output" (the
    loss of each epoch's last step: the mean of a Tensor output, the first element of a tuple)
    and each metric Model.fit evaluated to its list of values."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = {"epoch": []}

    def on_train_begin(self, run_context):
        self.epoch = {"epoch": []}

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        current = {"net_output": _scalar(cb_params.get("net_outputs"))}
        metrics = cb_params.get("metrics")
        if metrics:
            current.update(metrics)
        for key, value in current.items():
            self.history.setdefault(key, []).append(value)

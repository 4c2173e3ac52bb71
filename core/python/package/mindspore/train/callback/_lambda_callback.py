"""LambdaCallback: a callback made of functions, one per stage."""
from mindspore.train.callback._callback import Callback

__all__ = ["LambdaCallback"]

_STAGES = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin", "on_train_step_end",
           "on_train_begin", "on_train_end", "on_eval_epoch_begin", "on_eval_epoch_end",
           "on_eval_step_begin", "on_eval_step_end", "on_eval_begin", "on_eval_end")


def _nothing(run_context):
    return None


class LambdaCallback(Callback):
    """Calls the function given for a stage (each takes run_context); stages without one do
    nothing."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None, on_train_step_begin=None,
                 on_train_step_end=None, on_train_begin=None, on_train_end=None,
                 on_eval_epoch_begin=None, on_eval_epoch_end=None, on_eval_step_begin=None,
                 on_eval_step_end=None, on_eval_begin=None, on_eval_end=None):
        super().__init__()
        given = locals()
        for stage in _STAGES:
            fn = given[stage]
            setattr(self, stage, fn if fn else _nothing)

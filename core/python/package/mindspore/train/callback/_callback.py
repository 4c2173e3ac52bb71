"""Callback, RunContext and the callback list Model runs (MindSpore's CallbackManager).

A Callback's on_train_* / on_eval_* methods fall back on the old names (begin, epoch_begin,
step_begin, step_end, epoch_end, end), as in MindSpore 2.2, so callbacks written for either
spelling run under Model.train, Model.eval and Model.fit.
"""
from contextlib import ExitStack

from mindspore import log as logger
from mindspore.train._checks import scalar as _scalar

__all__ = ["Callback", "RunContext"]


class Callback:
    """The base of the callbacks Model calls at each stage of training and evaluation; a context
    manager Model enters before running and exits afterwards."""

    def __enter__(self):
        return self

    def __exit__(self, *err):
        """Releases resources, if any."""

    # The old names, called by the on_train_* and on_eval_* methods below unless overridden.
    def begin(self, run_context):
        """Called once before the network runs (train or eval)."""

    def epoch_begin(self, run_context):
        """Called before each epoch."""

    def epoch_end(self, run_context):
        """Called after each epoch."""

    def step_begin(self, run_context):
        """Called before each step."""

    def step_end(self, run_context):
        """Called after each step."""

    def end(self, run_context):
        """Called once after the network ran."""

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


_STAGES = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
           "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
           "on_train_step_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
           "on_eval_epoch_end", "on_eval_step_begin", "on_eval_step_end", "on_eval_end")


def _dispatch(stage):
    def call(self, run_context):
        for cb in self._callbacks:
            getattr(cb, stage)(run_context)

    call.__name__ = stage
    call.__doc__ = "Calls %s of every callback, in order." % stage
    return call


class CallbackManager(Callback):
    """Runs a list of callbacks in order at each stage (None, one Callback or a list)."""

    def __init__(self, callbacks):
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError("When the 'callbacks' is a list, the elements in "
                                    "'callbacks' must be Callback functions.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")

    def __enter__(self):
        if self._stack is None:
            callbacks, self._stack = [], ExitStack().__enter__()
            for callback in self._callbacks:
                target = self._stack.enter_context(callback)
                if not isinstance(target, Callback):
                    logger.warning("Please return 'self' or a Callback as the enter target.")
                    callbacks.append(callback)
                else:
                    callbacks.append(target)
            self._callbacks = callbacks
        return self

    def __exit__(self, *err):
        return self._stack.__exit__(*err)


for _stage in _STAGES:
    setattr(CallbackManager, _stage, _dispatch(_stage))


class InternalCallbackParam(dict):
    """The run's information (cb_params): a dict whose keys are also attributes."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError("'cb_params' has no attribute '%s'." % key) from None

    def __setattr__(self, key, value):
        self[key] = value

    def __delattr__(self, key):
        try:
            del self[key]
        except KeyError:
            raise AttributeError("'cb_params' has no attribute '%s'." % key) from None


class RunContext:
    """The information Model shares with the callbacks (original_args(), a dict with attribute
    access) and the stop request (request_stop(), get_stop_requested())."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError("The argument 'original_args' of RunContext should be dict type, "
                            "but got {}.".format(type(original_args)))
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """The dict of the model's information (cb_params)."""
        return self._original_args

    def request_stop(self):
        """Asks Model to stop after the current step (train and eval check it)."""
        self._stop_requested = True

    def get_stop_requested(self):
        """Whether a stop was requested."""
        return self._stop_requested


def _handle_loss(loss):
    """The loss as LossMonitor and EarlyStopping see it: a tuple's first Tensor stays a Tensor (a
    loss-scaled step returns (loss, overflow, scale), and MindSpore prints that loss as a Tensor);
    a lone Tensor becomes the float of its mean."""
    from mindspore import Tensor
    if isinstance(loss, (tuple, list)):
        if loss and isinstance(loss[0], Tensor):
            return loss[0]
        return loss
    return _scalar(loss)

"""EarlyStopping: stops training when a monitored value stops improving."""
import numbers

import numpy as np

from mindspore import log as logger
from mindspore.train._checks import check_bool, check_non_negative_int, check_value_type
from mindspore.train.callback._callback import Callback, _handle_loss

__all__ = ["EarlyStopping"]

# Monitors whose smaller values are better ("auto" mode).
_smaller_better_metrics = ['hausdorff_distance', 'mae', 'mse', 'loss', 'perplexity',
                           'mean_surface_distance', 'root_mean_square_distance', 'eval_loss']


def _monitor_value(cb_params, monitor, who):
    """The monitored value at the end of an epoch: "loss" is the last step's training loss, any
    other name an entry of the evaluation results Model.fit put in cb_params (None, with a
    warning, when it is not there)."""
    candidates = {}
    if monitor == "loss":
        value = _handle_loss(cb_params.get("net_outputs"))
    else:
        candidates = cb_params.get("eval_results", {}) or {}
        value = candidates.get(monitor)
    if value is None:
        logger.warning("%s is conditioned on %s, which is not available. Available choices are: %s",
                       who, monitor, set(["loss"] + list(candidates.keys())))
        return None
    value = np.asarray(getattr(value, "asnumpy", lambda: value)())
    if value.shape != ():
        raise ValueError("%s only supports scalar monitor now." % who.split()[0])
    return value


def _direction(mode, monitor, min_delta):
    if mode == 'min' or (mode == 'auto' and monitor in _smaller_better_metrics):
        return (lambda a, b: np.less(a, b - min_delta)), np.inf
    return (lambda a, b: np.greater(a, b + min_delta)), -np.inf


class EarlyStopping(Callback):
    """Stops training (run_context.request_stop()) once `monitor` has not improved by more than
    min_delta for `patience` epochs. monitor: "loss" (training loss), or with Model.fit
    "eval_loss" and the names of the Model's metrics. restore_best_weights puts back the weights
    of the best epoch when stopping."""

    def __init__(self, monitor='eval_loss', min_delta=0, patience=0, verbose=False, mode='auto',
                 baseline=None, restore_best_weights=False):
        super().__init__()
        self.monitor = check_value_type('monitor', monitor, str)
        min_delta = check_value_type("min_delta", min_delta, [float, int])
        self.min_delta = abs(min_delta)
        self.patience = check_non_negative_int(patience)
        self.verbose = check_bool(verbose)
        self.mode = check_value_type('mode', mode, str)
        if baseline is not None:
            check_value_type("baseline", baseline, [float, int])
        self.baseline = baseline
        self.restore_best_weights = check_bool(restore_best_weights)
        if self.mode not in ['auto', 'min', 'max']:
            raise ValueError("mode should be 'auto', 'min' or 'max', but got %s." % self.mode)
        self.is_improvement, self.best = _direction(self.mode, self.monitor, self.min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights_param_dict = None

    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self.is_improvement, self.best = _direction(self.mode, self.monitor, self.min_delta)
        self.best_weights_param_dict = None

    @staticmethod
    def _snapshot(network):
        return {name: p.asnumpy().copy() for name, p in network.parameters_dict().items()}

    @staticmethod
    def _restore(network, saved):
        from mindspore import Tensor
        for name, p in network.parameters_dict().items():
            if name in saved:
                p.set_data(Tensor(saved[name]))

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        current = _monitor_value(cb_params, self.monitor, "Early stopping")
        if current is None:
            return
        network = cb_params.get("train_network")
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = self._snapshot(network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = self._snapshot(network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print('Restoring model weights from the end of the best epoch.')
                self._restore(network, self.best_weights_param_dict)

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print('Epoch %05d: early stopping' % self.stopped_epoch)

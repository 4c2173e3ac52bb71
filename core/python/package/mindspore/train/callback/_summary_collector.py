"""mindspore.SummaryCollector: a Callback that writes a training's summary with SummaryRecord:
the loss at the first step and every collect_freq steps (tag 'loss'), the first step's input images (collect_input_data, NCHW with 1 or 3 channels), histograms of the
parameters histogram_regular selects (the first five by default) every collect_tensor_freq steps,
and the values of the summary ops the network runs. Graphs and lineage (MindInsight metadata) are
not written."""
import re

import numpy as np

from mindspore import Tensor
from mindspore.train.callback._callback import Callback
from mindspore.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryCollector"]

_SPECIFIED = ("collect_metric", "collect_graph", "collect_train_lineage", "collect_eval_lineage",
              "collect_input_data", "collect_dataset_graph", "histogram_regular", "collect_landscape")


def _positive_int(name, value, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError("For 'SummaryCollector', the '%s' must be a positive int, but got %r." % (name, value))
    return value


def _loss_of(outputs):
    if isinstance(outputs, (tuple, list)) and outputs:
        outputs = outputs[0]
    if isinstance(outputs, Tensor) and outputs.size == 1:
        return outputs
    return None


class SummaryCollector(Callback):
    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        super().__init__()
        if not isinstance(summary_dir, str) or not summary_dir:
            raise ValueError("For 'SummaryCollector', the 'summary_dir' must be a non-empty str, but got %r."
                             % (summary_dir,))
        self._summary_dir = summary_dir
        self._collect_freq = _positive_int("collect_freq", collect_freq)
        self._tensor_freq = _positive_int("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        self._max_file_size = max_file_size
        if not isinstance(keep_default_action, bool):
            raise TypeError("For 'SummaryCollector', the 'keep_default_action' must be bool.")
        specified = collect_specified_data or {}
        if not isinstance(specified, dict):
            raise TypeError("For 'SummaryCollector', the 'collect_specified_data' must be a dict, but got %s."
                            % type(specified).__name__)
        for key in specified:
            if key not in _SPECIFIED:
                raise ValueError("For 'SummaryCollector', the key %r of 'collect_specified_data' is not one of %s."
                                 % (key, list(_SPECIFIED)))
        defaults = {key: keep_default_action for key in _SPECIFIED if key != "histogram_regular"}
        defaults["histogram_regular"] = None
        defaults.update(specified)
        self._collect = defaults
        self._record = None
        self._inputs_done = False

    def on_train_begin(self, run_context):
        self._record = SummaryRecord(self._summary_dir, max_file_size=self._max_file_size)

    def _histograms(self, cb_params):
        network = cb_params.get("network") or cb_params.get("train_network")
        if network is None:
            return
        params = list(network.trainable_params())
        pattern = self._collect["histogram_regular"]
        chosen = [p for p in params if re.match(pattern, p.name)] if pattern else params[:5]
        for p in chosen:
            self._record.add_value("histogram", p.name + "/auto", Tensor(np.array(p.asnumpy())))

    def on_train_step_end(self, run_context):
        if self._record is None:
            self.on_train_begin(run_context)
        cb_params = run_context.original_args()
        step = cb_params.cur_step_num
        if self._collect.get("collect_input_data") and not self._inputs_done:
            self._inputs_done = True
            inputs = cb_params.get("train_dataset_element")
            first = inputs[0] if isinstance(inputs, (tuple, list)) and inputs else inputs
            if isinstance(first, Tensor) and first.ndim == 4 and first.shape[1] in (1, 3):
                self._record.add_value("image", "input_data/auto", first)
        collect_now = step == 1 or step % self._collect_freq == 0
        if collect_now and self._collect.get("collect_metric"):
            loss = _loss_of(cb_params.get("net_outputs"))
            if loss is not None:
                self._record.add_value("scalar", "loss", loss.astype("float32").reshape(()))
        tensor_freq = self._tensor_freq or self._collect_freq
        if (step == 1 or step % tensor_freq == 0) and self._collect["histogram_regular"] is not False:
            self._histograms(cb_params)
        if collect_now:
            self._record.record(step)

    def on_train_end(self, run_context):
        if self._record is not None:
            self._record.close()
            self._record = None

    def __del__(self):
        # A training that stopped early (an exception) still leaves a complete file.
        record = getattr(self, "_record", None)
        if record is not None:
            record.close()

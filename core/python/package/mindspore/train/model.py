"""Model: training, evaluation and prediction over a network, as mindspore.train.Model.

Data always reaches the network through the dataset's tuple iterator in Python: dataset sink mode
(dataset_sink_mode=True) runs the same way, as MindSpore does on CPU, with a warning. Mixed
precision (amp_level, keep_batchnorm_fp32, loss_scale_manager) builds the train network with
amp.build_train_network, as MindSpore does. Boost levels and parallel modes are not provided.
"""
import copy
from collections.abc import Iterable

import mindspore.nn as nn
from mindspore import Tensor
from mindspore.train import amp
from mindspore import log as logger
from mindspore.train._checks import check_bool, check_is_int, check_non_negative_int, check_positive_int
from mindspore.train.callback import RunContext, TimeMonitor, _CallbackManager, _InternalCallbackParam
from mindspore.train.metrics import Loss, get_metric_fn, get_metrics

__all__ = ["Model"]

# MindSpore's own callbacks (its mindspore.train.callback.__all__): exempt from the check of
# old-style method names, and the ones Model.fit leaves out of its evaluations but TimeMonitor.
_INTERNAL_CALLBACKS = ("Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "FlopsUtilizationCollector",
                       "SummaryCollector", "CheckpointConfig", "RunContext", "LearningRateScheduler",
                       "SummaryLandscape", "History", "LambdaCallback", "ReduceLROnPlateau", "EarlyStopping",
                       "OnRequestExit", "BackupAndRestore")
_OLD_METHODS = {'begin', 'end', 'epoch_begin', 'epoch_end', 'step_begin', 'step_end'}
_AMP_LEVELS = ("O0", "O1", "O2", "O3", "auto")
_BOOST_LEVELS = ("O0", "O1", "O2")


def _transfer_tensor_to_tuple(inputs):
    if isinstance(inputs, Tensor):
        return (inputs,)
    return tuple(inputs)


def _check_input_data(*data, data_class):
    for item in data:
        if isinstance(item, (list, tuple)):
            _check_input_data(*item, data_class=data_class)
        elif isinstance(item, dict):
            _check_input_data(*item.values(), data_class=data_class)
        elif not any(item is None if t is None else isinstance(item, t) for t in data_class):
            shown = tuple(t.__name__ if t is not None else None for t in data_class)
            raise TypeError(f'The type of input data must be in the Union({shown}, '
                            f'tuple[{shown}], list[{shown}], dict[{shown}]), '
                            f'but got type {item if item is None else type(item).__name__}.')


class Model:
    """Groups a network with its loss function, optimizer and metrics for training (train, fit),
    evaluation (eval) and inference (predict).

    With an optimizer, the train network is TrainOneStepCell(WithLossCell(network, loss_fn),
    optimizer) (without loss_fn the network must compute its loss); without one,
    WithLossCell(network, loss_fn) or the network itself (a network that updates its own weights,
    such as a TrainOneStepCell). Metrics need eval_network or loss_fn: the eval network is then
    WithEvalCell(network, loss_fn), whose (loss, logits, label) feed Loss and the other metrics.
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
                 amp_level="O0", boost_level="O0", **kwargs):
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._loss_scale_manager = None
        self._loss_scale_manager_set = False
        self._keep_bn_fp32 = None
        self._check_kwargs(kwargs)
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._eval_network = eval_network
        self._metrics = metrics
        self._parallel_mode = "stand_alone"
        self._device_number = 1
        self._check_amp_level_arg(optimizer, amp_level, kwargs)
        self._check_boost_level(boost_level, kwargs)
        self._process_amp_args(kwargs)
        self._train_network = self._build_train_network()
        self._build_eval_network(metrics, self._eval_network, eval_indexes)
        self._predict_network = self._network
        self._current_epoch_num = 0
        self._current_step_num = 0
        self._backbone_is_train = True

    # -- construction --------------------------------------------------------------------------

    @staticmethod
    def _check_kwargs(kwargs):
        for arg in kwargs:
            if arg not in ['loss_scale_manager', 'keep_batchnorm_fp32', 'boost_config_dict', 'acc_level']:
                raise ValueError(f"The argument in 'kwargs' should be 'loss_scale_manager' or "
                                 f"'keep_batchnorm_fp32' or 'boost_config_dict' or 'acc_level', but got '{arg}'.")

    def _check_amp_level_arg(self, optimizer, amp_level, kwargs):
        if optimizer is None and amp_level != "O0":
            raise ValueError(
                "Auto mixed precision will not work because 'optimizer' is None.Please set amp_level='O0' "
                "to disable auto mixed precision or set 'optimizer' not be None to use auto mixed precision.")
        if not isinstance(amp_level, str) or amp_level not in _AMP_LEVELS:
            raise ValueError("For 'Model', the 'amp_level' must be one of %s, but got %r."
                             % (list(_AMP_LEVELS), amp_level))
        if kwargs.get('loss_scale_manager') is not None and optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")

    def _process_amp_args(self, kwargs):
        if self._amp_level in ["O0", "O3"]:
            self._keep_bn_fp32 = False
        if 'keep_batchnorm_fp32' in kwargs:
            self._keep_bn_fp32 = kwargs['keep_batchnorm_fp32']
        if 'loss_scale_manager' in kwargs:
            self._loss_scale_manager = kwargs['loss_scale_manager']
            self._loss_scale_manager_set = True

    def _check_boost_level(self, boost_level, kwargs):
        level = kwargs.get('acc_level', boost_level)
        if 'acc_level' in kwargs:
            logger.warning("Next version acc_level will be removed, please replace with boost_level")
        if not isinstance(level, str) or level not in _BOOST_LEVELS:
            raise ValueError("For 'Model', the 'boost_level' must be one of %s, but got %r."
                             % (list(_BOOST_LEVELS), level))
        if level != "O0":
            logger.warning("For 'Model', boost_level '%s' is not supported by gradstep: the network is "
                           "trained as with boost_level 'O0'." % level)

    def _build_train_network(self):
        network = self._network
        if not isinstance(network, nn.Cell):
            raise TypeError("The type of 'network' should be 'Cell', but got type '%s'." % type(network).__name__)
        if self._optimizer is not None and self._amp_level == "O0" and not self._loss_scale_manager_set:
            if self._loss_fn is not None:
                network = nn.WithLossCell(network, self._loss_fn)
            network = nn.TrainOneStepCell(network, self._optimizer)
        elif self._optimizer is not None:
            amp_config = {}
            if self._loss_scale_manager_set:
                amp_config['loss_scale_manager'] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                amp_config['keep_batchnorm_fp32'] = self._keep_bn_fp32
            network = amp.build_train_network(network, self._optimizer, self._loss_fn, level=self._amp_level,
                                              **amp_config)
        elif self._loss_fn is not None:
            network = nn.WithLossCell(network, self._loss_fn)
        return network

    def _build_eval_network(self, metrics, eval_network, eval_indexes):
        self._metric_fns = get_metrics(metrics)
        self._eval_indexes = None
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError("The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                                 "length of it must be three. But got 'eval_indexes' {}".format(eval_indexes))
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
        else:
            if self._loss_fn is None:
                raise ValueError(f"If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you"
                                 f" don't want an evaluation.\n"
                                 f"If evaluation is required, you need to specify `eval_network`, which will be used in"
                                 f" the framework to evaluate the model.\n"
                                 f"For the simple scenarios with one data, one label and one logits, `eval_network` is"
                                 f" optional, and then you can set `eval_network` or `loss_fn`. For the latter case,"
                                 f" framework will automatically build an evaluation network with `network` and"
                                 f" `loss_fn`.")
            self._eval_network = nn.WithEvalCell(self._network, self._loss_fn,
                                                 add_cast_fp32=self._amp_level in ["O2", "O3", "auto"])
            self._eval_indexes = [0, 1, 2]

    # -- metrics -------------------------------------------------------------------------------

    def _clear_metrics(self):
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs):
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if isinstance(outputs, list):
            outputs = tuple(outputs)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError("The length of 'outputs' must be >= 3, but got {}".format(len(outputs)))
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self):
        return {key: value.eval() for key, value in self._metric_fns.items()}

    # -- helpers -------------------------------------------------------------------------------

    def _set_mode(self, network, is_train):
        if self._backbone_is_train != is_train or getattr(network, "training", is_train) != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        return network

    @staticmethod
    def _transform_callbacks(callbacks):
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable):
            return list(callbacks)
        return [callbacks]

    @staticmethod
    def _check_methods_for_custom_callbacks(callbacks, current_mode):
        if not isinstance(callbacks, list):
            callbacks = [callbacks]
        for cb in callbacks:
            cb_name = cb.__class__.__name__
            if cb_name in _INTERNAL_CALLBACKS:
                continue
            invalid = set(cb.__class__.__dict__.keys()) & _OLD_METHODS
            if not invalid:
                continue
            if current_mode in ("train", "eval"):
                logger.warning("For %s callback, %s methods may not be supported in later version, "
                               "Use methods prefixed with 'on_train' or 'on_eval' instead "
                               "when using customized callbacks." % (cb_name, invalid))
            else:
                raise ValueError("For %s callback, %s methods may not be supported in later version, "
                                 "Use methods prefixed with 'on_train' or 'on_eval' instead when "
                                 "using customized callbacks." % (cb_name, invalid))

    @staticmethod
    def _dataset_size(dataset, who):
        if not hasattr(dataset, "create_tuple_iterator") or not hasattr(dataset, "get_dataset_size"):
            raise TypeError("For '%s', the dataset must be a mindspore.dataset Dataset, but got %s."
                            % (who, type(dataset).__name__))
        return dataset.get_dataset_size()

    @staticmethod
    def _sink_warning(dataset_sink_mode, what):
        if dataset_sink_mode:
            logger.warning("gradstep cannot support dataset sink mode. So the %s process will be performed "
                           "with dataset not sink." % what)

    def _check_train_args(self, who, epoch, train_dataset, dataset_sink_mode, sink_size, initial_epoch):
        check_bool(dataset_sink_mode)
        check_is_int(sink_size)
        check_non_negative_int(epoch)
        check_non_negative_int(initial_epoch)
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.{who}', the parameter 'epoch' must bigger than parameter 'initial_epoch',"
                             f" but got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        dataset_size = self._dataset_size(train_dataset, "Model.%s" % who)
        if dataset_size == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size == -1:
            sink_size = dataset_size
        if sink_size < -1 or sink_size == 0:
            raise ValueError("For 'Model.{}', The argument 'sink_size' must be -1 or positive, "
                             "but got {}.".format(who, sink_size))
        return sink_size, dataset_size

    # -- training ------------------------------------------------------------------------------

    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Trains for epochs initial_epoch+1 .. epoch over train_dataset, which yields (data, label)
        when loss_fn is set, else the network's inputs; callbacks run at each stage and may stop
        the training (RunContext.request_stop)."""
        sink_size, dataset_size = self._check_train_args("train", epoch, train_dataset, dataset_sink_mode,
                                                         sink_size, initial_epoch)
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "train")
        self._train(epoch, train_dataset, callbacks=callbacks, dataset_sink_mode=dataset_sink_mode,
                    sink_size=sink_size, initial_epoch=initial_epoch, dataset_size=dataset_size)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """train, with an evaluation on valid_dataset after every valid_frequency-th epoch (an int)
        or after the epochs listed (a list); the results reach the callbacks as cb_params.metrics
        and cb_params.eval_results (with "eval_loss")."""
        check_bool(valid_dataset_sink_mode)
        sink_size, dataset_size = self._check_train_args("fit", epoch, train_dataset, dataset_sink_mode,
                                                         sink_size, initial_epoch)
        if isinstance(valid_frequency, bool) or not isinstance(valid_frequency, (int, list)):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be"
                             "None or empty, you should set the argument 'metrics' for model.")
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "fit")
        self._train(epoch, train_dataset, callbacks=callbacks, dataset_sink_mode=dataset_sink_mode,
                    sink_size=sink_size, initial_epoch=initial_epoch, valid_dataset=valid_dataset,
                    valid_frequency=valid_frequency, valid_dataset_sink_mode=valid_dataset_sink_mode,
                    dataset_size=dataset_size)

    def _train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1, initial_epoch=0,
               valid_dataset=None, valid_frequency=1, valid_dataset_sink_mode=False, dataset_size=None):
        epoch = check_positive_int(epoch)
        self._sink_warning(dataset_sink_mode, "training")
        cb_params = _InternalCallbackParam()
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        # The size _check_train_args took: counting a dataset of unknown size (GeneratorDataset over a
        # generator) runs the whole pipeline, so once per call is one pass too many already.
        cb_params.batch_num = train_dataset.get_dataset_size() if dataset_size is None else dataset_size
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = self._parallel_mode
        cb_params.device_number = self._device_number
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        valid_infos = (valid_dataset, valid_frequency, valid_dataset_sink_mode)
        with _CallbackManager(callbacks) as list_callback:
            self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos)

    def _train_process(self, epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos):
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        network = self._train_network
        self._set_mode(network, True)
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            self._current_step_num = 0
            list_callback.on_train_epoch_begin(run_context)
            for next_element in train_dataset.create_tuple_iterator(num_epochs=1):
                len_element = len(next_element)
                next_element = _transfer_tensor_to_tuple(next_element)
                if self._loss_fn is not None and len_element != 2:
                    raise ValueError("When 'loss_fn' is not None, 'train_dataset' should return "
                                     "two elements, but got {}, please check the number of elements "
                                     "returned by 'train_dataset'".format(len_element))
                cb_params.cur_step_num += 1
                self._current_step_num = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
                cb_params.train_dataset_element = next_element
                list_callback.on_train_step_begin(run_context)
                self._set_mode(network, True)
                outputs = network(*next_element)
                cb_params.net_outputs = outputs
                list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            self._eval_during_train(valid_infos, cb_params, list_callback)
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)

    @staticmethod
    def _should_eval(epoch, validation_freq):
        return epoch % validation_freq == 0 if isinstance(validation_freq, int) else epoch in validation_freq

    def _eval_during_train(self, valid_infos, cb_params, list_callback):
        valid_dataset, valid_frequency, valid_dataset_sink_mode = valid_infos
        if valid_dataset is None or not self._should_eval(cb_params.cur_epoch_num, valid_frequency):
            return
        saved = {key: cb_params.get(key) for key in ("cur_step_num", "batch_num", "dataset_sink_mode",
                                                     "net_outputs")}
        eval_callbacks = [cb for cb in list_callback._callbacks
                          if cb.__class__.__name__ not in _INTERNAL_CALLBACKS or isinstance(cb, TimeMonitor)]
        self._eval_in_fit(valid_dataset, eval_callbacks, valid_dataset_sink_mode, cb_params)
        cb_params.mode = "train"
        cb_params.update(saved)

    def _eval_in_fit(self, valid_dataset, callbacks, dataset_sink_mode, cb_params):
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        self._clear_metrics()
        self._sink_warning(dataset_sink_mode, "evaluating")
        with _CallbackManager(callbacks) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params, add_eval_loss=True)

    # -- evaluation ----------------------------------------------------------------------------

    def _eval_process(self, valid_dataset, list_callback, cb_params, add_eval_loss=False):
        run_context = RunContext(cb_params)
        cb_params.dataset_sink_mode = False
        network = self._eval_network
        list_callback.on_eval_begin(run_context)
        self._set_mode(network, False)
        list_callback.on_eval_epoch_begin(run_context)
        eval_loss_fn = Loss() if add_eval_loss else None
        for next_element in valid_dataset.create_tuple_iterator(num_epochs=1):
            cb_params.cur_step_num += 1
            next_element = _transfer_tensor_to_tuple(next_element)
            cb_params.eval_dataset_element = next_element
            list_callback.on_eval_step_begin(run_context)
            self._set_mode(network, False)
            outputs = network(*next_element)
            cb_params.net_outputs = outputs
            list_callback.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if eval_loss_fn is not None:
                loss_index = self._eval_indexes[0] if self._eval_indexes is not None else 0
                loss = outputs[loss_index] if isinstance(outputs, (tuple, list)) else outputs
                eval_loss_fn.update(loss)
            if run_context.get_stop_requested():
                break
        list_callback.on_eval_epoch_end(run_context)
        metrics = self._get_metrics()
        cb_params.metrics = metrics
        if eval_loss_fn is not None:
            cb_params.eval_results = copy.deepcopy(metrics)
            cb_params.eval_results.update({"eval_loss": eval_loss_fn.eval()})
        list_callback.on_eval_end(run_context)
        return metrics

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Evaluates the metrics over valid_dataset: {metric name: value}."""
        dataset_sink_mode = check_bool(dataset_sink_mode)
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, "
                             "you should set the argument 'metrics' for model.")
        self._dataset_size(valid_dataset, "Model.eval")
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "eval")
        cb_params = _InternalCallbackParam()
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.network = self._network
        self._clear_metrics()
        self._sink_warning(dataset_sink_mode, "evaluating")
        with _CallbackManager(callbacks) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params)

    # -- prediction ----------------------------------------------------------------------------

    def predict(self, *predict_data, backend=None):
        """The network's output on predict_data (Tensors, or lists / tuples of them), in inference
        mode (set_train(False))."""
        if backend is not None and backend != "lite":
            raise ValueError("For 'Model.predict', the 'backend' must be None or 'lite', but got %r." % (backend,))
        if backend == "lite":
            logger.warning("For 'Model.predict', the 'lite' backend is not available in gradstep; the network "
                           "runs as with backend=None.")
        self._set_mode(self._predict_network, False)
        _check_input_data(*predict_data, data_class=(int, float, str, None, Tensor))
        return self._predict_network(*predict_data)

    # -- properties ----------------------------------------------------------------------------

    @property
    def train_network(self):
        """The network train runs (for example TrainOneStepCell(WithLossCell(...)))."""
        return self._train_network

    @property
    def predict_network(self):
        """The network predict runs."""
        return self._predict_network

    @property
    def eval_network(self):
        """The network eval runs (None without metrics and eval_network)."""
        return self._eval_network

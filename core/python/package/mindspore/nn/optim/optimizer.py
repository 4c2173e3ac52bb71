"""mindspore.nn.optim.optimizer: Optimizer, the base of the optimizers written in Python (and of
a script's own), with MindSpore's parameter groups ('params', 'lr', 'weight_decay',
'grad_centralization', 'order_params'), learning rates that are numbers, lists, 1-D Tensors or
LearningRateSchedule Cells, coupled weight decay and loss_scale.

An optimizer's update is a Python construct(gradients) over registry ops (ops.assign etc.), so
every update op is a node the debugger shows; inside a compiled step its Parameter writes are the
graph's (Note [Side effects in compiled code] in gradstep's jit_state.cpp). The core optimizers (SGD, Momentum, Adam with a
fixed learning rate and no groups) stay C++ and count as Optimizers for isinstance.
"""
import functools
import inspect
import numbers
from collections.abc import Iterable

import numpy as np

import mindspore as _ms
from mindspore._optimizer_params import checked_parameters
import mindspore.nn as _nn
from mindspore import Parameter, ParameterTuple, Tensor, ops
from mindspore.nn.learning_rate_schedule import LearningRateSchedule

__all__ = ["Optimizer"]

_CoreOptimizer = _nn.Optimizer


class _OptimizerType(type(_nn.Cell)):
    def __instancecheck__(cls, obj):
        return super().__instancecheck__(obj) or (cls is Optimizer and isinstance(obj, _CoreOptimizer))


class _IteratorLearningRate(LearningRateSchedule):
    """A list or 1-D Tensor of learning rates read at global_step (0 past its end, as MindSpore's
    CPU Gather gives for an index out of range)."""

    def __init__(self, learning_rate, name):
        super().__init__()
        _register_keeping_name(self, "learning_rate", Parameter(learning_rate, name=name))

    def construct(self, global_step):
        size = self.learning_rate.shape[0]
        index = ops.minimum(global_step, size - 1)
        value = ops.gather(self.learning_rate, index, 0)
        return ops.select(global_step < size, value, ops.zeros_like(value))


def _parameters_base_check(parameters):
    """The parameters as a list (a str or a dict is refused as not a collection of them)."""
    return checked_parameters(parameters, "parameters", refused=(str, dict))


def _register_keeping_name(cell, attribute, value):
    """setattr for a learning rate: a Cell attribute renames a Parameter after itself, but
    MindSpore's learning rates keep their own names ('learning_rate_group_0', ...), which
    get_lr_parameter and checkpoints show."""
    name = value.name if isinstance(value, Parameter) else None
    setattr(cell, attribute, value)
    if name is not None and value.name != name:
        value.name = name
    return value


def _lr_length(learning_rate):
    """The number of steps a list or 1-D Tensor learning rate holds; 0 for the other kinds."""
    if isinstance(learning_rate, Tensor):
        return learning_rate.shape[0] if learning_rate.ndim == 1 else 0
    if isinstance(learning_rate, (list, tuple)):
        return len(learning_rate)
    return 0


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


class Optimizer(_nn.Cell, metaclass=_OptimizerType):
    """Optimizer(learning_rate, parameters, weight_decay=0.0, loss_scale=1.0): a subclass defines
    construct(gradients) and uses decay_weight, scale_grad, get_lr and the state helpers below."""

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        who = self.cls_name
        if not _is_number(loss_scale) or isinstance(loss_scale, float) and not loss_scale > 0 or loss_scale <= 0:
            raise ValueError("For '%s', the argument 'loss_scale' must be > 0, but got %s." % (who, loss_scale))
        self.loss_scale = float(loss_scale)
        self.need_scale = self.loss_scale != 1.0
        parameters = self._parameters_list(parameters)
        self.is_group = isinstance(parameters[0], dict)
        self.is_group_params_ordered = False
        self.dynamic_lr = False
        self._lr_count = 0
        default_lr = self._learning_rate(learning_rate, "learning_rate")
        default_wd = self._weight_decay(weight_decay)
        if self.is_group:
            self._init_groups(parameters, learning_rate, default_wd)
        else:
            self._parameters = ParameterTuple(self._checked_params(parameters, "parameters"))
            self.learning_rate = default_lr
            self.is_group_lr = False
            self.weight_decay = default_wd
            self.decay_flags = tuple("beta" not in p.name and "gamma" not in p.name for p in self._parameters)
            self.exec_weight_decay = _decays(default_wd)
            self.grad_centralization_flags = tuple(False for _ in self._parameters)
        self.parameters = self._parameters
        self.param_length = len(self._parameters)
        self.global_step = Parameter(Tensor([0], _ms.int32), name="global_step", requires_grad=False)

    # -- construction -------------------------------------------------------------------------
    def _parameters_list(self, parameters):
        parameters = _parameters_base_check(parameters)
        kinds = {isinstance(p, dict) for p in parameters}
        if len(kinds) > 1:
            raise TypeError("For '%s', the argument 'parameters' must be all Parameters or all dicts (groups), "
                            "not a mixture." % self.cls_name)
        return parameters

    def _checked_params(self, params, what):
        params = list(params)
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError("For '%s', all elements of the argument '%s' must be 'Parameter', but got %s."
                                % (self.cls_name, what, type(p)))
        return params

    def _learning_rate(self, learning_rate, name):
        """A 0-D Parameter, or a LearningRateSchedule for lists, 1-D Tensors and schedules."""
        who = self.cls_name
        if isinstance(learning_rate, LearningRateSchedule):
            self.dynamic_lr = True
            return learning_rate
        if _is_number(learning_rate):
            if learning_rate < 0:
                raise ValueError("For '%s', the argument 'learning_rate' must be >= 0, but got %s."
                                 % (who, learning_rate))
            return Parameter(Tensor(float(learning_rate), _ms.float32), name=name, requires_grad=False)
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim == 0:
                return Parameter(learning_rate.astype(_ms.float32), name=name, requires_grad=False)
            if learning_rate.ndim != 1:
                raise ValueError("For '%s', the dim of Tensor type 'learning_rate' should be a 0 or 1, but got %d."
                                 % (who, learning_rate.ndim))
            self.dynamic_lr = True
            return _IteratorLearningRate(learning_rate.astype(_ms.float32), name)
        if isinstance(learning_rate, Iterable) and not isinstance(learning_rate, str):
            values = list(learning_rate)
            if not values or not all(_is_number(v) for v in values):
                raise TypeError("For '%s', a list 'learning_rate' must hold numbers, but got %s." % (who, values))
            self.dynamic_lr = True
            return _IteratorLearningRate(Tensor(np.array(values, np.float32)), name)
        raise TypeError("For '%s', the type of 'learning_rate' should be one of ['int', 'float', 'Tensor', "
                        "'Iterable', 'LearningRateSchedule'], but got type '%s'." % (who, type(learning_rate).__name__))

    def _weight_decay(self, weight_decay):
        if isinstance(weight_decay, _nn.Cell):
            return _DynamicWeightDecay(weight_decay, self.loss_scale)
        if not _is_number(weight_decay):
            raise TypeError("For '%s', the type of 'weight_decay' should be float or int (or a Cell), but got "
                            "type '%s'."
                            % (self.cls_name, type(weight_decay).__name__))
        if not weight_decay >= 0:
            raise ValueError("For '%s', the 'weight_decay' must be float and must >= 0, but got '%s'."
                             % (self.cls_name, weight_decay))
        # Scaled like the gradients, so decay_weight then scale_grad give g / loss_scale + wd * p.
        return float(weight_decay) * self.loss_scale

    def _init_groups(self, groups, default_lr_arg, default_wd):
        who = self.cls_name
        params, lrs, wds, gcs, order = [], [], [], [], None
        self.group_lr, self.group_weight_decay, self.group_params = [], [], []
        group_lr_given = False
        lr_length = _lr_length(default_lr_arg)  # every list or 1-D Tensor rate must have one length
        for index, group in enumerate(groups):
            unknown = set(group) - {"params", "lr", "weight_decay", "grad_centralization", "order_params"}
            if unknown:
                raise ValueError("For '%s', the key of a parameter group must be 'params', 'lr', 'weight_decay', "
                                 "'grad_centralization' or 'order_params', but got %s." % (who, sorted(unknown)))
            if "order_params" in group:
                order = self._checked_params(group["order_params"], "order_params")
                self.is_group_params_ordered = True
                continue
            if "params" not in group:
                raise ValueError("For '%s', every parameter group must have the key 'params'." % who)
            members = self._checked_params(group["params"], "params")
            if not members:
                raise ValueError("For '%s', the 'params' of group %d must not be empty." % (who, index))
            if "lr" in group:
                group_lr_given = True
                length = _lr_length(group["lr"])
                if length and lr_length and length != lr_length:
                    raise ValueError("For 'Optimizer', the Tensor type dynamic learning rate in group must be the "
                                     "same size as the argument 'learning_rate'.")
                lr_length = lr_length or length
                lr = self._learning_rate(group["lr"], "learning_rate_group_" + str(index))
            else:
                lr = None
            wd = self._weight_decay(group["weight_decay"]) if "weight_decay" in group else default_wd
            gc = group.get("grad_centralization", False)
            if not isinstance(gc, bool):
                raise TypeError("For '%s', 'grad_centralization' must be bool, but got %s." % (who, type(gc).__name__))
            for p in members:
                if any(p is q or p.name == q.name for q in params):
                    raise RuntimeError("The parameter '%s' in the 'params' of the group %d appears in another "
                                       "group too." % (p.name, index))
                params.append(p)
                lrs.append(lr)
                wds.append(wd)
                gcs.append(gc)
        if order is not None:
            position = {id(p): i for i, p in enumerate(params)}
            missing = [p.name for p in order if id(p) not in position]
            if missing or len(order) != len(params):
                raise ValueError("For '%s', the 'order_params' must hold exactly the Parameters of the groups, but "
                                 "%s differ." % (who, missing or "their counts"))
            picks = [position[id(p)] for p in order]
            params, lrs, wds, gcs = ([seq[i] for i in picks] for seq in (params, lrs, wds, gcs))
        self.is_group_lr = group_lr_given
        if group_lr_given:
            default = self._learning_rate(default_lr_arg, "learning_rate")
            lrs = [default if lr is None else lr for lr in lrs]
            self.learning_rate = tuple(dict.fromkeys(lrs))  # one entry per distinct group rate
            self.group_lr = lrs
            for i, lr in enumerate(self.learning_rate):
                _register_keeping_name(self, "_group_lr_%d" % i, lr)
        else:
            self.learning_rate = self._learning_rate(default_lr_arg, "learning_rate")
        self._parameters = ParameterTuple(params)
        self.group_params = params
        self.group_weight_decay = wds
        self.weight_decay = tuple(wds)
        self.decay_flags = tuple(_decays(wd) for wd in wds)
        self.exec_weight_decay = any(self.decay_flags)
        self.grad_centralization_flags = tuple(gcs)

    def _state(self, prefix, init=0.0, dtype=None):
        """One state Parameter per parameter, named prefix.<name>, registered in the Cell so that
        checkpoints of the optimizer hold it as MindSpore's do."""
        state = []
        for p in self._parameters:
            value = ops.fill(dtype or p.dtype, p.shape, init)
            param = Parameter(value, name=prefix + "." + p.name, requires_grad=False)
            # The attribute name cannot hold dots in gradstep's Cells (inserting renames the
            # Parameter after it); the Parameter gets MindSpore's dotted name back.
            self.insert_param_to_cell((prefix + "." + p.name).replace(".", "_"), param)
            param.name = prefix + "." + p.name
            state.append(param)
        return ParameterTuple(state)

    # -- what construct uses ------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        # Runs eagerly even in GRAPH_MODE (see the module docstring), as the step's update phase.
        return _nn._run_python_update(self, *args, **kwargs)

    def construct(self, *hyper_params):
        raise NotImplementedError

    def flatten_gradients(self, gradients):
        return tuple(gradients)

    def decay_weight(self, gradients):
        """g + weight_decay * p for the parameters that decay (coupled L2)."""
        if not self.exec_weight_decay:
            return tuple(gradients)
        wds = self.get_weight_decay()
        wds = wds if self.is_group else (wds,) * self.param_length
        return tuple(g + wd * p if flag else g
                     for g, p, wd, flag in zip(gradients, self._parameters, wds, self.decay_flags))

    def get_weight_decay(self):
        """This step's weight decay (a tuple, one per parameter, with groups): a weight decay Cell
        is called with global_step before get_lr advances it, as in MindSpore."""
        if self.is_group:
            return tuple(wd(self.global_step) if isinstance(wd, _DynamicWeightDecay) else wd
                         for wd in self.weight_decay)
        wd = self.weight_decay
        return wd(self.global_step) if isinstance(wd, _DynamicWeightDecay) else wd

    def gradients_centralization(self, gradients):
        """Subtracts the mean over all axes but the first from gradients of rank > 1 (groups with
        grad_centralization)."""
        out = []
        for g, flag in zip(gradients, self.grad_centralization_flags):
            if flag and g.ndim > 1:
                g = g - ops.mean(g, axis=tuple(range(1, g.ndim)), keep_dims=True)
            out.append(g)
        return tuple(out)

    def scale_grad(self, gradients):
        if not self.need_scale:
            return tuple(gradients)
        return tuple(g * (1.0 / self.loss_scale) for g in gradients)

    def _lr_value(self, lr):
        return lr(self.global_step).reshape(()) if isinstance(lr, LearningRateSchedule) else lr

    def _advances_step(self):
        """get_lr advances global_step when a learning rate or a weight decay depends on it."""
        wds = self.weight_decay if self.is_group else (self.weight_decay,)
        return self.dynamic_lr or any(isinstance(wd, _DynamicWeightDecay) for wd in wds)

    def get_lr(self):
        """The learning rate of this step (a tuple, one per parameter, with group rates); a dynamic
        rate or weight decay advances global_step."""
        if self.is_group_lr:
            lr = tuple(self._lr_value(g) for g in self.group_lr)
        else:
            lr = self._lr_value(self.learning_rate)
        if self._advances_step():
            ops.assign_add(self.global_step, Tensor([1], _ms.int32))
        if getattr(self, "_reported_lr", None) is None:  # the debugger's learning rate of the step
            first = lr[0] if isinstance(lr, tuple) else lr
            self._reported_lr = float(first.asnumpy().reshape(-1)[0]) if isinstance(first, Tensor) else float(first)
        return lr

    def get_lr_parameter(self, param):
        """The learning rate (Parameter or schedule) of param, or a list of them for a list."""
        lrs = self.group_lr if self.is_group_lr else [self.learning_rate] * self.param_length
        by_name = {p.name: lr for p, lr in zip(self._parameters, lrs)}
        if isinstance(param, Parameter):
            if param.name not in by_name:
                raise ValueError("For 'get_lr_parameter', the parameter '%s' is not in the optimizer." % param.name)
            return by_name[param.name]
        if isinstance(param, (list, tuple)):
            return [self.get_lr_parameter(p) for p in param]
        raise TypeError("For 'get_lr_parameter', the 'param' must be a Parameter or a list of them, but got %s."
                        % type(param))

    def _step_count(self):
        """Advances global_step when get_lr did not, and returns it (the 1-based count of updates)."""
        if not self._advances_step():
            ops.assign_add(self.global_step, Tensor([1], _ms.int32))
        return self.global_step

    def _per_param(self, lr):
        return lr if isinstance(lr, tuple) else (lr,) * self.param_length

    def _prepared(self, gradients):
        """decay_weight, gradients_centralization and scale_grad, in MindSpore's order."""
        gradients = self.flatten_gradients(gradients)
        if len(gradients) != self.param_length:
            raise ValueError("For '%s', got %d gradients for %d parameters."
                             % (self.cls_name, len(gradients), self.param_length))
        return self.scale_grad(self.gradients_centralization(self.decay_weight(gradients)))


class _DynamicWeightDecay:
    """A weight decay Cell (construct(global_step) -> the decay) scaled like the gradients."""

    def __init__(self, cell, loss_scale):
        self.cell = cell
        self.loss_scale = loss_scale

    def __call__(self, global_step):
        value = self.cell(global_step)
        if isinstance(value, Tensor):
            value = ops.cast(value, _ms.float32).reshape(())
        return value * self.loss_scale if self.loss_scale != 1.0 else value


def _decays(weight_decay):
    """Whether a weight decay is applied: a Cell's is decided each step."""
    return isinstance(weight_decay, _DynamicWeightDecay) or weight_decay > 0


def route_to_python(core_cls, py_cls, python_only=lambda arguments: False):
    """core_cls(...) builds py_cls(...) instead when the core class cannot do what is asked:
    parameter groups, a dynamic learning rate, a loss scale, a weight decay Cell, or what
    python_only(arguments) finds."""
    core_new = core_cls.__new__
    signature = inspect.signature(py_cls.__init__)

    def needs_python(*args, **kwargs):
        try:
            bound = signature.bind(None, *args, **kwargs)
        except TypeError:
            return False  # the core class reports the wrong call in MindSpore's words
        bound.apply_defaults()
        a = bound.arguments
        return not core_can_take(a["params"], a["learning_rate"], a.get("loss_scale", 1.0)) or \
            isinstance(a.get("weight_decay"), _nn.Cell) or python_only(a)

    def __new__(cls, *args, **kwargs):
        if cls is core_cls and needs_python(*args, **kwargs):
            optimizer = py_cls.__new__(py_cls)
            optimizer.__init__(*args, **kwargs)
            return optimizer
        return core_new(cls)

    core_init = core_cls.__init__

    named = {name for name, p in signature.parameters.items()
             if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)}

    @functools.wraps(core_init)  # its docstring carries the signature help() and migrate read
    def __init__(self, *args, **kwargs):
        # The core class gets the parameters checked and listed as MindSpore's base class does (a
        # keyword it does not know it reports itself).
        try:
            bound = signature.bind(None, *args, **kwargs)
        except TypeError:
            return core_init(self, *args, **kwargs)
        if set(kwargs) - named:
            return core_init(self, *args, **kwargs)
        bound.arguments["params"] = _parameters_base_check(bound.arguments["params"])
        return core_init(self, *bound.args[1:], **bound.kwargs)

    core_cls.__new__ = staticmethod(__new__)
    core_cls.__init__ = __init__


def core_can_take(params, learning_rate, loss_scale=1.0):
    """Whether the core optimizers implement these arguments: Parameters (no groups), a number or
    a 0-D Tensor as learning rate and no loss scale."""
    if params is None or isinstance(params, Tensor) or not isinstance(params, Iterable):
        return False  # not a collection of Parameters: the Python base class refuses it as MindSpore's
    if isinstance(params, (list, tuple)) and any(isinstance(p, dict) for p in params):
        return False
    fixed = _is_number(learning_rate) or isinstance(learning_rate, Tensor) and learning_rate.ndim == 0
    return fixed and loss_scale == 1.0


_nn.Optimizer = Optimizer


# ---------------------------------------------------------------------------------------------
# Optimizer.target and Optimizer.unique. gradstep updates every Parameter on the host, so the only
# target it can take is "CPU": the optimizers MindSpore lets move their update to the host accept
# it, the others refuse as MindSpore's base class does. The core (C++) optimizers keep no Python
# attributes: their target reads "CPU" and takes only "CPU"; `unique` is the Python optimizers'.

_HOST_UPDATABLE = ("Adam", "LazyAdam", "FTRL", "ProximalAdagrad", "AdaFactor")


def _get_target(self):
    return _ms.get_context("device_target")


def _set_target(self, value):
    if type(self).__name__ not in _HOST_UPDATABLE:
        raise NotImplementedError("For '%s', the property 'target' cannot be set." % type(self).__name__)
    if not isinstance(value, str):
        raise TypeError("For 'Optimizer', the property 'target' must be string, but got {}".format(type(value)))
    if value not in ("CPU", "Ascend", "GPU"):
        raise ValueError("For 'Optimizer', the property 'target' must be one of ['CPU', 'Ascend' ,'GPU'], "
                         "but got {}".format(value))
    if value != _get_target(self):
        raise ValueError("For 'Optimizer', the property 'target' cannot be set to 'GPU' or 'Ascend' "
                         "in the 'CPU' environment.")


def _get_unique(self):
    return self.__dict__.get("_unique", True)


def _set_unique(self, value):
    if not isinstance(value, bool):
        raise TypeError("For 'Optimizer', the property 'unique' must be bool, but got {}".format(type(value)))
    self.__dict__["_unique"] = value


for _cls in (Optimizer, _CoreOptimizer):
    _cls.target = property(_get_target, _set_target, doc="Where the update runs: 'CPU' (gradstep's host).")
Optimizer.unique = property(_get_unique, _set_unique,
                            doc="Whether the optimizer makes sparse gradients unique (True unless set).")

"""Cell wrappers of MindSpore 2.2 beyond WithLossCell / TrainOneStepCell: WithGradCell,
ForwardValueAndGrad and WithEvalCell; TrainOneStepCell's return_grad and the attributes its
subclasses use (grad, grad_reducer, reducer_flag)."""
import mindspore.nn as _nn
from mindspore import ParameterTuple, Tensor
from mindspore import ops
from mindspore.common import dtype as _mstype
from mindspore.ops import GradOperation

__all__ = ["WithGradCell", "ForwardValueAndGrad", "WithEvalCell"]


def _check_cell(who, name, value):
    if not isinstance(value, _nn.Cell):
        raise TypeError("For '%s', the '%s' must be a Cell, but got %s."
                        % (who, name, type(value).__name__))


class WithGradCell(_nn.Cell):
    """The gradients of network (with loss_fn on its output and the label, when given) with
    respect to the network's trainable parameters; sens scales the output's gradient."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        _check_cell("WithGradCell", "network", network)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=(sens is not None))
        self.sens = sens
        if loss_fn is None:
            self.network_with_loss = network
        else:
            _check_cell("WithGradCell", "loss_fn", loss_fn)
            self.network_with_loss = _nn.WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class ForwardValueAndGrad(_nn.Cell):
    """(network's output, gradients): with respect to the inputs (get_all), the weights
    (get_by_list), or both; sens_param takes the output's gradient as the last input."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)
        _check_cell("ForwardValueAndGrad", "network", network)
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list),
                            ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError("For 'ForwardValueAndGrad', the type of '%s' must be bool, but got %s."
                                % (name, type(value).__name__))
        if get_by_list and not isinstance(weights, ParameterTuple):
            raise TypeError("For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the "
                            "argument 'weights' must be Parameters array, but got %s."
                            % type(weights).__name__)
        self.network = network
        self.network.set_grad()
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs):
        forward_inputs = inputs[:-1] if self.sens_param else inputs
        loss = self.network(*forward_inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*inputs)
        else:
            grads = self.grad(self.network)(*inputs)
        return loss, grads


class WithEvalCell(_nn.Cell):
    """(loss, outputs, label) of network on data, with loss_fn(outputs, label)."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        _check_cell("WithEvalCell", "network", network)
        _check_cell("WithEvalCell", "loss_fn", loss_fn)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:  # a float16 network's outputs and label, evaluated in float32
            label = _float32(label)
            outputs = _float32(outputs)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


def _float32(value):
    if isinstance(value, Tensor) and value.dtype in (_mstype.float16, _mstype.bfloat16, _mstype.float64):
        return ops.cast(value, _mstype.float32)
    return value


for _name in __all__:
    setattr(_nn, _name, globals()[_name])


# ---------------------------------------------------------------------------------------------
# TrainOneStepCell: return_grad, and the attributes subclasses' construct uses (grad,
# grad_reducer, reducer_flag), as in MindSpore.

_CppTrainOneStepCell = _nn.TrainOneStepCell
_cpp_train_init = _CppTrainOneStepCell.__init__
_cpp_train_new = _CppTrainOneStepCell.__new__


def _identity(grads):
    return grads


class _TrainOneStepCellReturningGrads(_CppTrainOneStepCell):
    """TrainOneStepCell(..., return_grad=True): returns (loss, {parameter name: gradient})."""

    def construct(self, *inputs):
        weights = self.weights
        loss = self.network(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, weights)(*inputs, sens)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return loss, {p.name: g for p, g in zip(weights, grads)}


# Note [Python optimizers in TrainOneStepCell]
# The core cell runs the core optimizers (nn.SGD, nn.Momentum, nn.Adam with fixed rates) itself,
# reporting their update to the debugger. An optimizer written in Python (groups, schedules, the
# other optimizers, a script's own nn.Optimizer subclass) is called from a Python construct
# instead (and is the cell's child 'optimizer'); the core cell is then given a core SGD over the same Parameters only because it keeps
# its weights through an optimizer: that SGD never runs.
_CoreOptimizer = _nn.Optimizer
_CoreSGD = _nn.SGD
_core_optimizer_property = _CppTrainOneStepCell.optimizer


def _python_optimizer(optimizer):
    return isinstance(optimizer, _nn.Cell) and not isinstance(optimizer, _CoreOptimizer)


def _python_optimizer_construct(self, *inputs):
    loss, grads = ops.value_and_grad(self.network, None, self.weights)(*inputs)
    if self.sens != 1.0:
        grads = tuple(g * self.sens for g in grads)
    grads = self.grad_reducer(grads)
    self.optimizer(grads)
    return loss


_python_step_classes = {}


def _python_step_class(cls):
    """cls with the Python construct (its own construct, when it has one, is kept)."""
    if cls.construct is not _CppTrainOneStepCell.construct:
        return cls
    if cls not in _python_step_classes:
        _python_step_classes[cls] = type(cls.__name__, (cls,), {"construct": _python_optimizer_construct,
                                                               "__module__": cls.__module__})
    return _python_step_classes[cls]


def _train_new(cls, *args, **kwargs):
    return_grad = kwargs.get("return_grad", args[3] if len(args) > 3 else False)
    optimizer = kwargs.get("optimizer", args[1] if len(args) > 1 else None)
    if return_grad and cls is _CppTrainOneStepCell:
        cls = _TrainOneStepCellReturningGrads
    elif _python_optimizer(optimizer):
        cls = _python_step_class(cls)
    return _cpp_train_new(cls)


def _train_init(self, network, optimizer, sens=None, return_grad=False):
    if not isinstance(return_grad, bool):
        raise TypeError("For 'TrainOneStepCell', the type of 'return_grad' must be bool, but got %s."
                        % type(return_grad).__name__)
    if _python_optimizer(optimizer):
        _cpp_train_init(self, network, _CoreSGD(list(optimizer.parameters), 0.0), sens, False)
        self.__dict__["_python_optimizer"] = optimizer
        # A child, as in MindSpore, so checkpoints of the train network hold the optimizer's state.
        self.insert_child_to_cell("optimizer", optimizer)
    else:
        _cpp_train_init(self, network, optimizer, sens, False)
    self.__dict__["return_grad"] = return_grad
    if return_grad and not isinstance(self, _TrainOneStepCellReturningGrads) and \
            type(self).construct is _CppTrainOneStepCell.construct:
        raise ValueError("For '%s', 'return_grad' needs TrainOneStepCell itself or a subclass with "
                         "its own construct." % type(self).__name__)


_train_init.__doc__ = _cpp_train_init.__doc__
_CppTrainOneStepCell.__new__ = staticmethod(_train_new)
_CppTrainOneStepCell.__init__ = _train_init
_CppTrainOneStepCell.grad = GradOperation(get_by_list=True, sens_param=True)
_CppTrainOneStepCell.grad_reducer = staticmethod(_identity)
_CppTrainOneStepCell.reducer_flag = False
_CppTrainOneStepCell.optimizer = property(
    lambda self: self.__dict__.get("_python_optimizer") or _core_optimizer_property.fget(self),
    doc=_core_optimizer_property.__doc__)


# Data parallel (Note [Data-parallel TrainOneStepCell]): in DATA_PARALLEL mode MindSpore's
# TrainOneStepCell sets reducer_flag and a DistributedGradReducer as grad_reducer, so each step's
# gradients are all-reduced before the optimizer. The core cell does the same reduction itself
# (after reporting each rank's own gradients to the debugger); the Python constructs call
# grad_reducer; parameter_broadcast sends rank 0's weights to every rank once, at construction.
def _data_parallel_init(self):
    from mindspore.parallel import _utils as _parallel
    if not _parallel._is_data_parallel():
        return
    from mindspore.nn._grad_reducer import DistributedGradReducer
    reducer = DistributedGradReducer(self.weights, _parallel._get_gradients_mean(), _parallel._get_device_num())
    self.__dict__["reducer_flag"] = True
    self.__dict__["grad_reducer"] = reducer
    self._set_gradient_reduction(reducer.mean, reducer.degree, reducer.group)
    if _parallel._get_parameter_broadcast():
        _broadcast_parameters(self.weights)


def _broadcast_parameters(parameters):
    broadcast = ops.Broadcast(0)
    for parameter in parameters:
        parameter.set_data(broadcast((parameter.value(),))[0])


_train_init_single = _CppTrainOneStepCell.__init__


def _train_init_parallel(self, network, optimizer, sens=None, return_grad=False):
    _train_init_single(self, network, optimizer, sens, return_grad)
    _data_parallel_init(self)


_train_init_parallel.__doc__ = _train_init_single.__doc__
_CppTrainOneStepCell.__init__ = _train_init_parallel

"""copy.deepcopy and copy.copy of Cells, as MindSpore supports them (an EMA or teacher copy of a
network, cloned layers of a stack).

A Cell's state lives partly in gradstep's C++ Cell, which pickling cannot reach, so a Cell is
copied the way it was made: every Cell class records the arguments of its outermost __init__ call
(the C++ layers' classes here, Python subclasses through __init_subclass__), and a deep copy
calls __init__ again on deep copies of them, then gives each new Parameter the original's value,
name and requires_grad, copies the training flag and the Python attributes set after __init__;
NumPy's global random state is as before the copy (the rebuild's initializer draws are undone).
A Cell whose Parameters changed after __init__ (a child replaced, a Parameter added) cannot be
rebuilt that way: its deep copy is refused with a TypeError rather than made different.
Optimizers of the C++ core are refused: their state cannot be read back into a rebuilt one.
copy.copy makes the same kind of copy: a Cell owns its Parameters, so a shallow copy sharing them
would alias the C++ state."""
import copy as _copy
import functools as _functools

import numpy as _np

import mindspore.nn as _nn

Cell = _nn.Cell
_ARGS = "_gradstep_init_args"


def _record_init(cls):
    init = cls.__dict__.get("__init__")
    if init is None or getattr(init, "_gradstep_records_args", False):
        return

    @_functools.wraps(init)
    def __init__(self, *args, **kwargs):
        state = self.__dict__
        outermost = _ARGS not in state
        if outermost:
            state[_ARGS] = (args, kwargs)
        init(self, *args, **kwargs)
        if outermost and not _initialized(self):
            _adopt_without_super(self)

    __init__._gradstep_records_args = True
    cls.__init__ = __init__


def _initialized(cell):
    try:
        cell.training  # reads the C++ Cell, which exists once Cell.__init__ ran
    except AttributeError:
        return False
    return True


def _adopt_without_super(cell):
    """MindSpore makes a Cell whose __init__ skipped super().__init__() and refuses it when it is
    called, with an AttributeError naming the cure; pybind11 would refuse the construction itself
    with its own text. So the C++ Cell is made here and construct is shadowed by that error."""
    Cell.__init__(cell)
    name = type(cell).__name__

    def construct(*args, **kwargs):
        raise AttributeError("The '%s' object does not inherit attribute from 'cell'. "
                             "Please use 'super().__init__()'." % name)

    cell.__dict__["construct"] = construct


def _record_tree(cls):
    _record_init(cls)
    for sub in cls.__subclasses__():
        _record_tree(sub)


def _init_subclass(cls, **kwargs):
    super(Cell, cls).__init_subclass__(**kwargs)
    _record_init(cls)


def _copy_cell(self, memo):
    recorded = self.__dict__.get(_ARGS)
    name = type(self).__name__
    if recorded is None:
        raise TypeError("For '%s', deepcopy needs the arguments the Cell was made with, and this one was "
                        "not made by calling its class." % name)
    args, kwargs = _copy.deepcopy(recorded, memo)
    cls = type(self)
    new = cls.__new__(cls)
    memo[id(self)] = new
    # MindSpore's deep copy draws nothing from NumPy; the rebuild's initializer seeds are undone.
    numpy_state = _np.random.get_state()
    try:
        cls.__init__(new, *args, **kwargs)
    finally:
        _np.random.set_state(numpy_state)
    old = dict(self.parameters_and_names())
    fresh = dict(new.parameters_and_names())
    if set(old) != set(fresh):
        raise TypeError("For '%s', deepcopy rebuilds the Cell from its __init__ arguments, but its Parameters "
                        "changed after __init__ (%s): it cannot be copied faithfully."
                        % (name, ", ".join(sorted(set(old) ^ set(fresh)))))
    for path, param in fresh.items():
        source = old[path]
        param.set_data(_copy.deepcopy(source.data if hasattr(source, "data") else source, memo))
        param.name = source.name
        param.requires_grad = source.requires_grad
        memo[id(source)] = param  # what else is copied with this Cell (an optimizer) shares it
    new.set_train(self.training)
    for key, value in self.__dict__.items():
        if key == _ARGS or key in new.__dict__ and _same(new.__dict__[key], value):
            continue
        if isinstance(value, Cell):
            continue  # children are rebuilt by __init__ (and checked through their Parameters)
        new.__dict__[key] = _copy.deepcopy(value, memo)
    return new


def _same(a, b):
    try:
        return a is b or bool(a == b)
    except Exception:  # noqa: BLE001 (arrays, tensors: compared by identity only)
        return False


def _deepcopy(self, memo=None):
    return _copy_cell(self, {} if memo is None else memo)


def _shallow_copy(self):
    return _copy_cell(self, {})


def _refuse_optimizer_copy(self, memo=None):
    raise TypeError("For '%s', copying an optimizer is not supported by gradstep: its state (moments, step) "
                    "lives in its C++ core and a rebuilt one would start afresh. Make a new optimizer over the "
                    "copied network's parameters instead." % type(self).__name__)


_record_tree(Cell)
Cell.__init_subclass__ = classmethod(_init_subclass)
Cell.__deepcopy__ = _deepcopy
Cell.__copy__ = _shallow_copy
_nn.Optimizer.__deepcopy__ = _refuse_optimizer_copy
_nn.Optimizer.__copy__ = _refuse_optimizer_copy

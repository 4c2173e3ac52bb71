"""The parts of MindSpore's Cell API that the C++ Cell does not bind: parameters_dict, apply,
untrainable_params, to_float, update_parameters_name, MindSpore's argument checks of
insert_child_to_cell / insert_param_to_cell (None children included), and the list behaviour of
SequentialCell and CellList (slices, item assignment, insert, extend, +=).

Everything is added to the C++ classes of mindspore.nn; the C++ methods that are wrapped are
kept here, so a wrapper calls the original once the arguments are checked.
"""
from collections import OrderedDict

import mindspore.nn as _nn
from mindspore import Parameter, Tensor
from mindspore.common import dtype as _mstype

Cell = _nn.Cell
SequentialCell = _nn.SequentialCell
CellList = _nn.CellList

_cpp_insert_child = Cell.insert_child_to_cell
_cpp_insert_param = Cell.insert_param_to_cell
_cpp_getitem = {SequentialCell: SequentialCell.__getitem__, CellList: CellList.__getitem__}
_cpp_append = {SequentialCell: SequentialCell.append, CellList: CellList.append}


def _type_name(value):
    return type(value).__name__


# ---------------------------------------------------------------------------------------------
# Cell


def parameters_dict(self, recurse=True):
    """OrderedDict of the parameters by their names (Parameter.name); the first of two equal
    names wins, as in MindSpore."""
    out = OrderedDict()
    params = self.get_parameters() if recurse else _own_parameters(self)
    for param in params:
        if param.name not in out:
            out[param.name] = param
    return out


def _own_parameters(cell):
    return [p for name, p in cell.parameters_and_names() if "." not in name]


def untrainable_params(self, recurse=True):
    """The parameters whose requires_grad is False."""
    params = self.get_parameters() if recurse else _own_parameters(self)
    return [p for p in params if not p.requires_grad]


def apply(self, fn):
    """Calls fn on every descendant Cell (children first, depth first) and then on self; returns
    self."""
    for cell in self.cells():
        cell.apply(fn)
    fn(self)
    return self


def to_float(self, dst_type):
    """Makes the Cell and every descendant compute in dst_type (float32, float16 or bfloat16): each
    op they run gets its float tensor inputs (Parameters too) cast to dst_type first, as
    MindSpore's PyNative executor does; returns self. A later call overwrites an earlier one."""
    allowed = [getattr(_mstype, n) for n in ("float32", "float16", "bfloat16") if hasattr(_mstype, n)]
    if dst_type not in allowed:
        raise ValueError("For 'to_float', the argument 'dst_type' should be mindspore.float32, "
                         "mindspore.float16 or mindspore.bfloat16, but got %s." % (dst_type,))
    self._set_mixed_precision(dst_type)
    for cell in self.cells():
        cell.to_float(dst_type)
    return self


def update_parameters_name(self, prefix="", recurse=True):
    """Prefixes the name of every parameter with prefix (their attribute paths after it)."""
    if not isinstance(prefix, str):
        raise TypeError("For 'update_parameters_name', the type of 'prefix' must be str, but got %s."
                        % _type_name(prefix))
    items = list(self.parameters_and_names())
    if not recurse:
        items = [(n, p) for n, p in items if "." not in n]
    for name, param in items:
        if prefix:
            param.name = prefix + name


def insert_child_to_cell(self, child_name, child_cell):
    """Adds a child Cell (or None, which holds the name without a Cell) under child_name."""
    if not isinstance(child_name, str):
        raise TypeError("For 'insert_child_to_cell', the type of parameter 'child_name' should be "
                        "str, but got %s." % _type_name(child_name))
    if not child_name:
        raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be None or "
                       "empty string.")
    if "." in child_name:
        raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not contain '.', "
                       "but got '%s'." % child_name)
    cells = self.__dict__.setdefault("_cells", {})
    params = self.__dict__.setdefault("_params", {})
    if child_name in params or (child_name in self.__dict__ and child_name not in cells):
        raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' '%s' already exists "
                       "as an attribute that is not a Cell." % child_name)
    if child_cell is None:
        if child_name in cells and cells[child_name] is not None:
            raise TypeError("For '%s', the child '%s' is a registered Cell and cannot be set to None "
                            "in gradstep." % (type(self).__name__, child_name))
        cells[child_name] = None
        return
    if not isinstance(child_cell, Cell):
        raise TypeError("For 'insert_child_to_cell', the argument 'child_cell' should be a Cell, "
                        "but got %s." % _type_name(child_cell))
    if child_name in cells and cells[child_name] is None:
        del cells[child_name]
    _cpp_insert_child(self, child_name, child_cell)


def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
    """Adds a Parameter under param_name."""
    if not isinstance(param_name, str):
        raise TypeError("For 'insert_param_to_cell', the type of parameter 'param_name' should be "
                        "str, but got %s." % _type_name(param_name))
    if not param_name:
        raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
    if check_name_contain_dot and "." in param_name:
        raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not contain "
                       "'.', but got '%s'." % param_name)
    if not isinstance(param, Parameter):
        raise TypeError("For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if "
                        "not None, but got %s." % _type_name(param))
    if param_name in self.__dict__.get("_cells", {}):
        raise KeyError("For 'insert_param_to_cell', the argument 'param_name' '%s' already exists "
                       "as a child Cell." % param_name)
    _cpp_insert_param(self, param_name, param, check_name_contain_dot)


for _name, _fn in [("parameters_dict", parameters_dict), ("untrainable_params", untrainable_params),
                   ("apply", apply), ("to_float", to_float),
                   ("update_parameters_name", update_parameters_name),
                   ("insert_child_to_cell", insert_child_to_cell),
                   ("insert_param_to_cell", insert_param_to_cell)]:
    setattr(Cell, _name, _fn)


# ---------------------------------------------------------------------------------------------
# SequentialCell and CellList


def _base(self):
    return SequentialCell if isinstance(self, SequentialCell) else CellList


def _who(self):
    return "SequentialCell" if isinstance(self, SequentialCell) else "CellList"


def _check_index(self, index):
    who = _who(self)
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError("For '%s', the type of index should be int type or slice type, but got %s."
                        % (who, _type_name(index)))
    size = len(self)
    if index < -size or index >= size:
        raise IndexError("For '%s', the value of index should be a number in range [%d, %d), but "
                         "got %d." % (who, -size, size, index))
    return index + size if index < 0 else index


def _names(self):
    return list(self.name_cells().keys())


def _container_prefix(self):
    """The prefix of the container's parameter names ('build_block.' once the container is an
    attribute of a network), read off a child's parameter as MindSpore's _get_prefix_and_index
    does: '' while no child holds a parameter."""
    for name, cell in self.name_cells().items():
        for path, param in cell.parameters_and_names():
            tail = name + "." + path
            if param.name.endswith(tail):
                return param.name[:len(param.name) - len(tail)]
    return ""


def _name_children_from(self, prefix, start):
    """Names the parameters of the children from position start on prefix + <key>. + <path>, as
    MindSpore's append / insert / __setitem__ name a cell added to a container already in a
    network (build_block.2.gamma, not 2.gamma)."""
    for name, cell in list(self.name_cells().items())[start:]:
        for path, param in cell.parameters_and_names():
            param.name = prefix + name + "." + path


def _container_getitem(self, index):
    if isinstance(index, slice):
        names = _names(self)
        cells = list(self.cells())
        picked = list(zip(names, cells))[index]
        if isinstance(self, SequentialCell):
            return SequentialCell(OrderedDict(picked))
        return CellList([c for _, c in picked])
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError("For '%s', the type of index should be int type or slice type, but got %s."
                        % (_who(self), _type_name(index)))
    return _cpp_getitem[_base(self)](self, _check_index(self, index))


def _container_setitem(self, index, cell):
    if isinstance(index, slice):
        raise TypeError("For '%s', slice assignment is not supported by gradstep; assign the "
                        "items one by one." % _who(self))
    position = _check_index(self, index)
    if not isinstance(cell, Cell):
        raise TypeError("For '%s', the type of cell should be Cell, but got %s."
                        % (_who(self), _type_name(cell)))
    prefix = _container_prefix(self)
    _cpp_insert_child(self, _names(self)[position], cell)
    _name_children_from(self, prefix, position)


def _container_delitem(self, index):
    """Removes the cell(s) at index (an int or a slice). A CellList numbers the rest again from
    0, as MindSpore's does; a SequentialCell keeps their names."""
    names = _names(self)
    if isinstance(index, slice):
        doomed = names[index]
    else:
        doomed = [names[_check_index(self, index)]]
    for name in doomed:
        self._remove_registered(name)
    if isinstance(self, CellList):
        prefix = _container_prefix(self)
        kept = list(zip(_names(self), self.cells()))
        for name, _ in kept:
            self._remove_registered(name)
        for cell in [c for _, c in kept]:
            _cpp_append[CellList](self, cell)
        _name_children_from(self, prefix, 0)


def _cell_delattr(self, name):
    """del cell.name: a child Cell or Parameter is unregistered (it leaves parameters_dict and
    the children); any other attribute is deleted as usual."""
    if name.startswith("__") or not self._remove_registered(name):
        object.__delattr__(self, name)


Cell.__delattr__ = _cell_delattr


def _container_insert(self, index, cell):
    """Inserts cell before position index (a negative index counts from the end)."""
    who = _who(self)
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError("For '%s', the type of index should be int type, but got %s."
                        % (who, _type_name(index)))
    if not isinstance(cell, Cell):
        raise TypeError("For '%s', the type of cell should be Cell, but got %s."
                        % (who, _type_name(cell)))
    size = len(self)
    if index < -size or index > size:
        raise IndexError("For '%s', the value of index should be a number in range [%d, %d], but "
                         "got %d." % (who, -size, size, index))
    if index < 0:
        index += size
    prefix = _container_prefix(self)
    cells = list(self.cells())
    _cpp_append[_base(self)](self, cells[-1] if cells else cell)
    names = _names(self)
    for i in range(size, index, -1):
        _cpp_insert_child(self, names[i], cells[i - 1])
    if size:
        _cpp_insert_child(self, names[index], cell)
    _name_children_from(self, prefix, index)
    return None


def _container_append(self, cell):
    if not isinstance(cell, Cell):
        raise TypeError("For '%s', the type of cell should be Cell, but got %s."
                        % (_who(self), _type_name(cell)))
    prefix = _container_prefix(self)
    _cpp_append[_base(self)](self, cell)
    _name_children_from(self, prefix, len(self) - 1)
    return self


def _container_extend(self, cells):
    """Appends every Cell of the iterable cells."""
    who = _who(self)
    if isinstance(cells, Cell) and not isinstance(cells, (SequentialCell, CellList)):
        raise TypeError("For '%s', the new cells should be an iterable of Cells, but got %s."
                        % (who, _type_name(cells)))
    try:
        items = list(cells)
    except TypeError:
        raise TypeError("For '%s', the new cells should be an iterable of Cells, but got %s."
                        % (who, _type_name(cells))) from None
    for cell in items:
        if not isinstance(cell, Cell):
            raise TypeError("For '%s', the type of cell should be Cell, but got %s."
                            % (who, _type_name(cell)))
    prefix = _container_prefix(self)
    start = len(self)
    for cell in items:
        _cpp_append[_base(self)](self, cell)
    _name_children_from(self, prefix, start)
    return self


def _container_iadd(self, cells):
    _container_extend(self, cells)
    return self


def _container_bool(self):
    return len(self) > 0


for _cls in (SequentialCell, CellList):
    _cls.__getitem__ = _container_getitem
    _cls.__setitem__ = _container_setitem
    _cls.__delitem__ = _container_delitem
    _cls.insert = _container_insert
    _cls.append = _container_append
    _cls.__bool__ = _container_bool
CellList.extend = _container_extend
CellList.__iadd__ = _container_iadd
SequentialCell.extend = _container_extend


def set_inputs(self, *inputs, **kwargs):
    """Describes the inputs of the next calls, dynamic-shape placeholders included (Tensor(shape=
    [None, 3], dtype=...)). MindSpore compiles one graph for the described shapes; gradstep
    compiles each concrete shape when it meets it, so the description is kept to check each call
    against it (dtype, rank and every known dimension), as MindSpore does."""
    for item in inputs:
        if item is not None and not isinstance(item, (Tensor, tuple, list, int, float, bool)):
            raise TypeError("For 'set_inputs', the inputs should be Tensor or tuple/list, but got %s."
                            % _type_name(item))
    self.__dict__["_gradstep_inputs"] = inputs if inputs else None
    if kwargs:
        self.__dict__["_gradstep_input_kwargs"] = kwargs


def get_inputs(self):
    """The inputs given to set_inputs (None when it was never called)."""
    return self.__dict__.get("_gradstep_inputs")


def _check_set_inputs(cell, args):
    """Called by Cell.__call__ when set_inputs described the inputs: each actual Tensor must have the
    described dtype and rank, and every dimension the description fixes."""
    described = cell.__dict__.get("_gradstep_inputs")
    if not described:
        return
    name = type(cell).__name__
    if len(described) != len(args):
        raise ValueError("For '%s', set_inputs described %d inputs, but the network was called with %d."
                         % (name, len(described), len(args)))
    for index, (expected, actual) in enumerate(zip(described, args)):
        _check_described(name, index, expected, actual)


def _check_described(name, index, expected, actual):
    if isinstance(expected, (tuple, list)) and isinstance(actual, (tuple, list)):
        if len(expected) != len(actual):
            raise ValueError("For '%s', the %dth input set by set_inputs is a %s of %d elements, but the "
                             "actual input has %d." % (name, index, _type_name(expected), len(expected),
                                                      len(actual)))
        for item_expected, item_actual in zip(expected, actual):
            _check_described(name, index, item_expected, item_actual)
        return
    if not isinstance(expected, Tensor):
        return
    if not isinstance(actual, Tensor):
        raise TypeError("For '%s', the %dth input set by set_inputs is a Tensor, but the actual input is %s."
                        % (name, index, _type_name(actual)))
    if expected.dtype != actual.dtype:
        raise TypeError("For '%s', the dtype of the %dth input set by set_inputs must be the same as the "
                        "actual input's, but got %s and %s." % (name, index, expected.dtype, actual.dtype))
    shape = expected.shape
    if tuple(shape) == (-2,):
        return
    if len(shape) != actual.ndim:
        raise ValueError("For '%s', the dims of the %dth input set by set_inputs must be equal to the dims of "
                         "the actual input, but got %d and %d (shapes %s and %s)."
                         % (name, index, len(shape), actual.ndim, list(shape), list(actual.shape)))
    for axis, (dim, real) in enumerate(zip(shape, actual.shape)):
        if dim not in (-1, real):
            raise ValueError("For '%s', the shape of the %dth input set by set_inputs must be equal to the "
                             "actual input's except in its dynamic (-1) dimensions, but got %s and %s "
                             "(axis %d)." % (name, index, list(shape), list(actual.shape), axis))


Cell.set_inputs = set_inputs
Cell.get_inputs = get_inputs


# ---------------------------------------------------------------------------------------------
# phase and get_parameters


def _phase(self):
    """'train' or 'predict': what the last set_train on this Cell chose ('train' before any)."""
    return self.__dict__.get("_gradstep_phase", "train")


def _set_phase(self, value):
    self.__dict__["_gradstep_phase"] = value


def _set_train(self, mode=True):
    """set_train also names the Cell's phase, as MindSpore's does ('train' / 'predict'); the
    descendants' training flags follow, their phase does not."""
    _cpp_set_train(self, mode)
    _set_phase(self, "train" if mode else "predict")
    return self


def get_parameters(self, expand=True):
    """A generator over the parameters, as MindSpore's."""
    yield from _cpp_get_parameters(self, expand)


if not hasattr(Cell, "_gradstep_cpp_set_train"):
    Cell._gradstep_cpp_set_train = Cell.set_train
    Cell._gradstep_cpp_get_parameters = Cell.get_parameters
_cpp_set_train = Cell._gradstep_cpp_set_train
_cpp_get_parameters = Cell._gradstep_cpp_get_parameters
Cell.set_train = _set_train
Cell.phase = property(_phase, _set_phase)
Cell.get_parameters = get_parameters


def compile(self, *args, **kwargs):
    """Compiles the Cell for these inputs now (graph mode), without running it, as MindSpore's
    Cell.compile does; the call that follows with inputs like these runs the compiled graph."""
    import mindspore
    mindspore._jit_compile_cell(self, *args, **kwargs)


Cell.compile = compile

"""mindspore.ops.Custom, CustomRegOp, DataType and custom_info_register.

A Custom op is a user's function run as ONE primitive: the graph shows one "Custom" node (its
attrs name the function), the debugger stops on it and shows its inputs and outputs, and autodiff
calls the user's bprop for it. gradstep runs MindSpore's CPU func_types:

* "pyfunc": func is a Python function over NumPy arrays returning one array or a tuple; its
  results are converted to out_dtype and must have out_shape.
* "aot": func is "path/to/lib.so:func_name"; the function is loaded with dlopen and called with
  MindSpore's convention int func(int nparam, void** params, int* ndims, int64_t** shapes,
  const char** dtypes, void* stream, void* extra) (inputs, then outputs; dtypes "float32", ...;
  stream and extra are null: attrs passed through `extra` and an Init function are not supported).

out_shape / out_dtype are a shape / dtype (a tuple of them for several outputs), or functions of
the input shapes / dtypes, as MindSpore takes them. reg_info (a CustomRegOp's get_op_info(), its
JSON text, or a list of them; also taken from custom_info_register) is checked as MindSpore's CPU
kernel selection checks it: when CPU entries list dtype_format rows, the inputs' dtypes must match
one of them. bprop(*inputs, out, dout) returns one gradient per input.
"""
import json
import os
import sys

import mindspore.ops as _ops
from mindspore.ops.primitive import Primitive

__all__ = ["Custom", "CustomRegOp", "DataType", "custom_info_register"]

_FUNC_TYPES = ("hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc", "julia")
_SUPPORTED = ("pyfunc", "aot")


class DataType:
    """MindSpore's (dtype, format) pairs for CustomRegOp.dtype_format."""
    None_None = ("", "")
    BOOL_None = ("bool", "")
    BOOL_Default = ("bool", "DefaultFormat")
    I8_None = ("int8", "")
    I8_Default = ("int8", "DefaultFormat")
    I16_None = ("int16", "")
    I16_Default = ("int16", "DefaultFormat")
    I32_None = ("int32", "")
    I32_Default = ("int32", "DefaultFormat")
    I64_None = ("int64", "")
    I64_Default = ("int64", "DefaultFormat")
    U8_None = ("uint8", "")
    U8_Default = ("uint8", "DefaultFormat")
    U16_None = ("uint16", "")
    U16_Default = ("uint16", "DefaultFormat")
    U32_None = ("uint32", "")
    U32_Default = ("uint32", "DefaultFormat")
    U64_None = ("uint64", "")
    U64_Default = ("uint64", "DefaultFormat")
    F16_None = ("float16", "")
    F16_Default = ("float16", "DefaultFormat")
    F32_None = ("float32", "")
    F32_Default = ("float32", "DefaultFormat")
    F64_None = ("float64", "")
    F64_Default = ("float64", "DefaultFormat")
    C64_Default = ("complex64", "DefaultFormat")
    C128_Default = ("complex128", "DefaultFormat")


class CustomRegOp:
    """Builder of a Custom op's registration info: inputs, outputs, attrs, dtype_format rows and
    target; get_op_info() gives the dict Custom's reg_info takes."""

    def __init__(self, op_name="Custom"):
        if not isinstance(op_name, str):
            raise TypeError("CustomRegOp's op_name must be str, but got %s." % type(op_name).__name__)
        self.op_name = op_name
        self.inputs = []
        self.outputs = []
        self.attr_ = []
        self.fusion_type_ = ""
        self.dtype_format_ = []
        self.target_ = ""

    @staticmethod
    def _io(index, name, param_type, kind):
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise TypeError("CustomRegOp.%s's index must be int, but got %s." % (kind, type(index).__name__))
        if name is not None and not isinstance(name, str):
            raise TypeError("CustomRegOp.%s's name must be str, but got %s." % (kind, type(name).__name__))
        return {"index": index, "name": name, "paramType": param_type}

    def input(self, index=None, name=None, param_type="required", **kwargs):
        item = self._io(index, name, param_type, "input")
        item.update(kwargs)
        self.inputs.append(item)
        return self

    def output(self, index=None, name=None, param_type="required", **kwargs):
        item = self._io(index, name, param_type, "output")
        item.update(kwargs)
        self.outputs.append(item)
        return self

    def dtype_format(self, *args):
        io_count = len(self.inputs) + len(self.outputs)
        if len(args) != io_count:
            raise ValueError("The size of 'args' must be equal to the sum of input size and output size, but "
                             "got %d vs %d." % (len(args), io_count))
        for arg in args:
            if not isinstance(arg, tuple) or len(arg) != 2 or not all(isinstance(a, str) for a in arg):
                raise ValueError("Each element of 'args' must be a (dtype, format) tuple of two strings (a "
                                 "DataType member), but got %r." % (arg,))
        self.dtype_format_.append(tuple(args))
        return self

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        item = {"name": name, "paramType": param_type, "type": value_type, "defaultValue": default_value}
        item.update(kwargs)
        self.attr_.append(item)
        return self

    def target(self, target=None):
        if target is not None and target not in ("Ascend", "GPU", "CPU"):
            raise ValueError("CustomRegOp's target must be one of ['Ascend', 'GPU', 'CPU'], but got %r." % target)
        self.target_ = target or ""
        return self

    def fusion_type(self, fusion_type):
        self.fusion_type_ = fusion_type
        return self

    def get_op_info(self):
        return {"op_name": self.op_name, "inputs": list(self.inputs), "outputs": list(self.outputs),
                "attr": list(self.attr_), "fusion_type": self.fusion_type_,
                "dtype_format": [[list(pair) for pair in row] for row in self.dtype_format_],
                "target": self.target_, "imply_type": "AOT"}


def custom_info_register(*reg_info):
    """Decorator: attaches reg_info to a function; a Custom over it uses it when given none."""

    def deco(func):
        setattr(func, "reg_info", list(reg_info))
        return func

    return deco


def _reg_entries(reg_info):
    """The CPU (or untargeted) entries of reg_info, as dicts."""
    items = reg_info if isinstance(reg_info, (list, tuple)) else [reg_info]
    entries = []
    for item in items:
        if isinstance(item, CustomRegOp):
            item = item.get_op_info()
        if isinstance(item, str):
            try:
                item = json.loads(item)
            except ValueError:
                raise ValueError("For 'Custom', the reg_info string must be JSON text, but got %r." % item)
        if not isinstance(item, dict):
            raise TypeError("For 'Custom', 'reg_info' must be of type dict, str or a list of them, but got %s."
                            % type(item).__name__)
        if item.get("target", "") in ("", "CPU", None):
            entries.append(item)
    return entries


def _shape_list(value, what):
    if isinstance(value, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return [tuple(value)]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (list, tuple)) for v in value):
        return [s for v in value for s in _shape_list(v, what)]
    raise TypeError("For 'Custom', '%s' must be a shape (a tuple or list of int), a tuple of shapes or a "
                    "function returning them, but got %r." % (what, value))


def _dtype_list(value):
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


class Custom(Primitive):
    """A user-defined op (see the module's documentation)."""

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None):
        Primitive.__init__(self, "Custom")
        if func_type not in _FUNC_TYPES:
            raise ValueError("For 'Custom', 'func_type' must be one of %s, but got '%s'."
                             % (list(_FUNC_TYPES), func_type))
        if func_type not in _SUPPORTED:
            raise ValueError("For 'Custom', func_type '%s' needs a device compiler gradstep does not have; on "
                             "CPU gradstep runs func_type 'pyfunc' (a Python function over NumPy arrays) and "
                             "'aot' (a function in a shared library)." % func_type)
        if bprop is not None and not callable(bprop):
            raise TypeError("For 'Custom', 'bprop' must be a function, but got %s." % type(bprop).__name__)
        if out_shape is None or out_dtype is None:
            raise ValueError("For 'Custom', 'out_shape' and 'out_dtype' must be given when 'func_type' is '%s', "
                             "but got out_shape=%r, out_dtype=%r." % (func_type, out_shape, out_dtype))
        if reg_info is None:
            reg_info = getattr(func, "reg_info", None)
        self.func = func
        self.func_type = func_type
        self.out_shape = out_shape
        self.out_dtype = out_dtype
        self.bprop = bprop
        self.reg_info = reg_info
        self._reg = _reg_entries(reg_info) if reg_info is not None else []
        if func_type == "pyfunc":
            if not callable(func) or isinstance(func, str):
                raise TypeError("For 'Custom', 'func' must be a function when 'func_type' is 'pyfunc', but got "
                                "%s." % type(func).__name__)
            self.func_name = getattr(func, "__name__", type(func).__name__)
            self._kernel = _ops._custom_pyfunc(self.func_name, func, self._infer, bprop)
        else:
            library, symbol = self._aot_path(func)
            self.func_name = library + ":" + symbol
            self._kernel = _ops._custom_aot(library, symbol, self._infer, bprop)
        self.add_prim_attr("func_type", func_type)
        self.add_prim_attr("func_name", self.func_name)

    @staticmethod
    def _aot_path(func):
        if not isinstance(func, str) or ":" not in func:
            raise ValueError("For 'Custom', user defined function path '%s' is illegal. Proper function path "
                             "should follow the format of 'dir_path/file_name:func_name'" % (func,))
        path, symbol = func.rsplit(":", 1)
        candidates = [path] if os.path.isabs(path) else [os.path.abspath(path)]
        if not os.path.isabs(path):
            # A relative path is also looked up beside the script that creates the op.
            caller = sys._getframe(2).f_code.co_filename
            if os.path.isfile(caller):
                candidates.append(os.path.join(os.path.dirname(os.path.abspath(caller)), path))
        for candidate in candidates:
            if os.path.isfile(candidate):
                return os.path.realpath(candidate), symbol
        raise ValueError("For 'Custom' on CPU, couldn't find the AOT binary file: %s" % path)

    def _infer(self, shapes, dtypes):
        out_shape = self.out_shape(*[list(s) for s in shapes]) if callable(self.out_shape) else self.out_shape
        out_dtype = self.out_dtype(*dtypes) if callable(self.out_dtype) else self.out_dtype
        shape_list = _shape_list(out_shape, "out_shape")
        dtype_list = _dtype_list(out_dtype)
        if len(shape_list) != len(dtype_list):
            raise ValueError("For 'Custom', 'out_shape' describes %d outputs but 'out_dtype' %d; they must "
                             "describe the same outputs." % (len(shape_list), len(dtype_list)))
        self._check_reg(dtypes, dtype_list)
        return list(zip(shape_list, dtype_list))

    def _check_reg(self, in_dtypes, out_dtypes):
        rows = [row for entry in self._reg for row in entry.get("dtype_format", [])]
        if not rows:
            return
        wanted = [str(d).lower() for d in in_dtypes] + [str(d).lower() for d in out_dtypes]
        for row in rows:
            names = [pair[0] for pair in row]
            if len(names) == len(wanted) and all(n in ("", w) for n, w in zip(names, wanted)):
                return
        listed = "; ".join("(" + ", ".join(pair[0] or "any" for pair in row) + ")" for row in rows)
        raise TypeError("For 'Custom' on CPU, no dtype_format of its reg_info matches the inputs and outputs "
                        "(%s): the registered ones are %s." % (", ".join(wanted), listed))

    def __call__(self, *args):
        return self._kernel(*args)

    def get_bprop(self):
        return self.bprop


_ops.Custom = Custom
_ops.operations.Custom = Custom
_ops.CustomRegOp = CustomRegOp
_ops.DataType = DataType
_ops.custom_info_register = custom_info_register

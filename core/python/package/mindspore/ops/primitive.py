"""mindspore.ops.primitive: the Primitive base (bound in C++), PrimitiveWithInfer,
PrimitiveWithCheck, prim_attr_register, constexpr and _primexpr.

A Python primitive subclasses Primitive, records its constructor arguments with
@prim_attr_register and computes in __call__ with mindspore.ops (so autodiff differentiates it);
PrimitiveWithInfer / PrimitiveWithCheck run their infer_* / check_* hooks before a __call__ of
their own, as MindSpore's front end does when it builds the graph."""
import functools
import inspect

import mindspore.ops as _ops
import mindspore.ops.operations as _operations
from mindspore import Tensor

Primitive = _ops.Primitive

__all__ = ["Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register",
           "constexpr", "_primexpr"]


# ---------------------------------------------------------------- methods every primitive has
def _add_prim_attr(self, name, value):
    """Adds an attribute (self.name and attrs[name]); returns the primitive."""
    self.attrs[name] = value
    try:
        object.__setattr__(self, name, value)
    except (AttributeError, TypeError):
        pass
    return self


def _add_prim_attrs(self, attrs):
    for k, v in attrs.items():
        _add_prim_attr(self, k, v)
    return self


def _del_prim_attr(self, name):
    """Removes an attribute added with add_prim_attr; returns the primitive."""
    self.attrs.pop(name, None)
    if name in getattr(self, "__dict__", {}):
        del self.__dict__[name]
    return self


def _set_prim_instance_name(self, instance_name):
    self.instance_name = instance_name
    return self


def _init_prim_io_names(self, inputs, outputs):
    _add_prim_attr(self, "input_names", list(inputs))
    _add_prim_attr(self, "output_names", list(outputs))


def _set_device(self, device_target):
    return _add_prim_attr(self, "primitive_target", device_target)


def _set_stage(self, stage):
    return _add_prim_attr(self, "stage", stage)


def _shard(self, in_strategy=None, out_strategy=None):
    _add_prim_attr(self, "in_strategy", in_strategy)
    return _add_prim_attr(self, "out_strategy", out_strategy)


def _recompute(self, mode=True):
    return _add_prim_attr(self, "recompute", mode)


def _update_parameter(self):
    return False


def _init_attrs(self):
    store = self.__dict__.setdefault("_init_attrs", {})
    return store


def _primitive_eq(self, other):
    return self is other


for _name, _fn in (("add_prim_attr", _add_prim_attr), ("add_prim_attrs", _add_prim_attrs),
                   ("del_prim_attr", _del_prim_attr), ("set_prim_instance_name", _set_prim_instance_name),
                   ("init_prim_io_names", _init_prim_io_names), ("set_device", _set_device),
                   ("set_stage", _set_stage), ("shard", _shard), ("recompute", _recompute)):
    if not hasattr(Primitive, _name):
        setattr(Primitive, _name, _fn)
if not hasattr(Primitive, "update_parameter"):
    Primitive.update_parameter = property(_update_parameter)
if not hasattr(Primitive, "init_attrs"):
    Primitive.init_attrs = property(_init_attrs)
if not hasattr(Primitive, "instance_name"):
    Primitive.instance_name = ""


# ---------------------------------------------------------------- infer / check primitives
def _abstract(value):
    """MindSpore's abstract value dict of an argument: shape, dtype and value."""
    if isinstance(value, Tensor):
        return {"shape": tuple(value.shape), "dtype": value.dtype, "value": value}
    return {"shape": None, "dtype": type(value), "value": value}


class PrimitiveWithInfer(Primitive):
    """A Primitive whose subclasses may define infer_shape(*shapes), infer_dtype(*dtypes) and
    infer_value(*values) (or __infer__(*abstracts)). Calling it runs the inference (which raises
    the subclass's errors); a subclass computes its result in __call__, or infer_value gives it."""

    def __init__(self, name):
        Primitive.__init__(self, name)

    def infer_shape(self, *args):
        return None

    def infer_dtype(self, *args):
        return None

    def infer_value(self, *args):
        return None

    def __infer__(self, *args):
        shapes = [_abstract(a)["shape"] for a in args]
        dtypes = [_abstract(a)["dtype"] for a in args]
        values = [_abstract(a)["value"] for a in args]
        return {"shape": self.infer_shape(*shapes), "dtype": self.infer_dtype(*dtypes),
                "value": self.infer_value(*values)}

    def __call__(self, *args):
        out = self.__infer__(*args)
        if out["value"] is not None:
            return out["value"]
        raise RuntimeError("For '%s', the primitive has no kernel: define __call__ (with mindspore.ops) "
                           "or infer_value." % self.name)


class PrimitiveWithCheck(Primitive):
    """A Primitive whose subclasses may define check_shape(*shapes) and check_dtype(*dtypes)
    (or __check__(*abstracts)); calling it runs the checks, then the subclass's computation."""

    def __init__(self, name):
        Primitive.__init__(self, name)

    def check_shape(self, *args):
        return None

    def check_dtype(self, *args):
        return None

    def __check__(self, *args):
        self.check_shape(*[_abstract(a)["shape"] for a in args])
        self.check_dtype(*[_abstract(a)["dtype"] for a in args])

    def __call__(self, *args):
        self.__check__(*args)
        raise RuntimeError("For '%s', the primitive has no kernel: define __call__ with mindspore.ops."
                           % self.name)


def _run_checked(cls):
    """Wraps a subclass's own __call__ so infer / check hooks run first (as MindSpore's graph
    builder does before the kernel)."""
    own = cls.__dict__.get("__call__")
    if own is None or getattr(own, "_gradstep_checked", False):
        return

    @functools.wraps(own)
    def call(self, *args, **kwargs):
        if isinstance(self, PrimitiveWithCheck):
            self.__check__(*args)
        elif isinstance(self, PrimitiveWithInfer) and type(self).infer_shape is not PrimitiveWithInfer.infer_shape:
            self.__infer__(*args)
        return own(self, *args, **kwargs)

    call._gradstep_checked = True
    cls.__call__ = call


def _subclass_hook(cls, **kwargs):
    _run_checked(cls)


PrimitiveWithInfer.__init_subclass__ = classmethod(_subclass_hook)
PrimitiveWithCheck.__init_subclass__ = classmethod(_subclass_hook)


# ---------------------------------------------------------------- decorators
def prim_attr_register(fn):
    """Decorates a primitive's __init__: initialises the Primitive with the class name and
    records every constructor argument (defaults included) as an attribute."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        cls = type(self)
        name = getattr(cls, "substitute_name", cls.__name__)
        Primitive.__init__(self, name)
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self", None)
        init_attrs = self.__dict__.setdefault("_init_attrs", {})
        for key, value in arguments.items():
            if signature.parameters[key].kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                continue
            self.add_prim_attr(key, value)
            init_attrs[key] = value
        fn(self, *args, **kwargs)

    deco.decorated_func = fn
    return deco


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """Marks a function computed from constants at compile time. gradstep runs it in Python in
    both modes; get_instance=False returns the marker class, as MindSpore does."""

    def deco(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        wrapper.__gradstep_constexpr__ = True
        if get_instance:
            return wrapper

        class CompileOp:
            def __init__(self):
                self.name = name or func.__name__

            def __call__(self, *args, **kwargs):
                return func(*args, **kwargs)

        CompileOp.__name__ = name or func.__name__
        return CompileOp

    if fn is not None and callable(fn):
        return deco(fn)
    return deco


def _primexpr(fn=None, get_instance=True, name=None, reuse_result=True):
    """Like constexpr, for functions of shapes that may be known only when the graph runs."""
    return constexpr(fn, get_instance, name, reuse_result)


for _target in (_ops, _operations):
    for _name in ("PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register", "constexpr"):
        if not hasattr(_target, _name):
            setattr(_target, _name, globals()[_name])
if not hasattr(_ops, "_primexpr"):
    _ops._primexpr = _primexpr

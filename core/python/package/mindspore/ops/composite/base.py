"""mindspore.ops.composite.base: GradOperation, MultitypeFuncGraph, HyperMap and Map.

MultitypeFuncGraph picks the registered function whose type names match the arguments' types
(MindSpore's names: "Number", "Tensor", "Tuple", ...); HyperMap applies a function over
(possibly nested) tuples, lists and dicts element by element; Map over one level only.
"""
import numbers

import mindspore

from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import GradOperation

__all__ = ["GradOperation", "MultitypeFuncGraph", "HyperMap", "Map"]


def _type_matches(name, value):
    if isinstance(name, mstype.Type):
        name = str(name)
    if name in ("Tensor", "MetaTensor"):
        return isinstance(value, Tensor)
    if name == "Number":
        return isinstance(value, (bool, numbers.Number)) and not isinstance(value, Tensor)
    if name in ("Bool", "bool", "Bool_"):
        return isinstance(value, bool)
    if name in ("Int", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"):
        return isinstance(value, int) and not isinstance(value, bool)
    if name in ("Float", "Float16", "Float32", "Float64"):
        return isinstance(value, float)
    if name == "Tuple":
        return isinstance(value, tuple)
    if name == "List":
        return isinstance(value, list)
    if name in ("Dictionary", "Dict"):
        return isinstance(value, dict)
    if name == "String":
        return isinstance(value, str)
    if name in ("None", "NoneType"):
        return value is None
    if name == "Function":
        return callable(value) and not isinstance(value, Tensor)
    if name in ("RowTensor", "COOTensor", "CSRTensor"):
        return type(value).__name__ == name
    raise ValueError("MultitypeFuncGraph: unknown type name '%s'" % (name,))


def _type_name(value):
    if isinstance(value, Tensor):
        return "Tensor[%s]" % (value.dtype,)
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Int64"
    if isinstance(value, float):
        return "Float64"
    if isinstance(value, tuple):
        return "Tuple"
    if isinstance(value, list):
        return "List"
    if isinstance(value, dict):
        return "Dictionary"
    if isinstance(value, str):
        return "String"
    if value is None:
        return "None"
    return type(value).__name__


class MultitypeFuncGraph:
    """A function with one implementation per tuple of argument types.

        add = MultitypeFuncGraph("add")
        @add.register("Number", "Number")
        def _(x, y): ...
    """

    def __init__(self, name, read_value=False, doc_url=""):
        if not isinstance(name, str):
            raise TypeError("For 'MultitypeFuncGraph', the argument 'name' must be a str, but got %s."
                            % type(name).__name__)
        self.name = name
        self.read_value = read_value
        self.doc_url = doc_url
        self.entries = []

    def register(self, *type_names):
        """Registers the decorated function for arguments of these types."""

        def deco(fn):
            self.entries.append((type_names, fn))
            return fn

        return deco

    def __call__(self, *args):
        for types, fn in self.entries:
            if len(types) == len(args) and all(_type_matches(t, a) for t, a in zip(types, args)):
                # In graph mode the registered function compiles from its source (an `if` on a
                # tensor becomes control flow); in PyNative _jit_call just calls it.
                return mindspore._jit_call(fn, *args)
        got = ", ".join(_type_name(a) for a in args)
        raise TypeError("For 'MultitypeFuncGraph', cannot find fn match given args. Got (sigs, fn): "
                        "'%s' (%s), and the registered signatures are %s."
                        % (self.name, got, [list(map(str, t)) for t, _ in self.entries]))


def _apply(fn, args, recursive, who):
    first = args[0]
    if isinstance(first, (tuple, list)):
        for a in args[1:]:
            if not isinstance(a, (tuple, list)):
                raise TypeError("For '%s', the inputs must all be sequences when the first is, but got %s."
                                % (who, type(a).__name__))
            if len(a) != len(first):
                raise ValueError("For '%s', the length of all sequences must be the same, but got %d and %d."
                                 % (who, len(first), len(a)))
        if recursive:
            items = [_apply(fn, column, True, who) for column in zip(*args)]
        else:
            items = [fn(*column) for column in zip(*args)]
        return list(items) if isinstance(first, list) else tuple(items)
    if recursive and isinstance(first, dict):
        return {k: _apply(fn, [first[k]] + [a[k] for a in args[1:]], True, who) for k in first}
    return fn(*args)


class _Mapper:
    """What HyperMap and Map share: the function given at construction or as the first argument."""

    _recursive = True

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        who = type(self).__name__
        fn = self.ops
        if fn is None:
            if not args:
                raise TypeError("For '%s', the function to apply is missing." % who)
            fn, args = args[0], args[1:]
        if not args:
            raise TypeError("For '%s', at least one sequence to map over is needed." % who)
        return _apply(fn, list(args), self._recursive, who)


class HyperMap(_Mapper):
    """Applies a function to every leaf of nested tuples, lists and dicts: HyperMap(fn)(xs, ys)
    or HyperMap()(fn, xs, ys)."""


class Map(_Mapper):
    """Applies a function to each element of one level of tuples or lists: Map(fn)(xs, ys) or
    Map()(fn, xs, ys)."""

    _recursive = False

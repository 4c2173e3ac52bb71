"""Wrong arguments to a function or constructor bound from C++ get a TypeError in MindSpore's
wording ("For 'Dense', the type of 'in_channels' should be int, but got str.") instead of
pybind11's overload listing, which names C++ types and never reaches a user.

Every module-level function and every class constructor of the C++ modules is wrapped once, when
the package is imported: the wrapper costs nothing until the call fails, and then rebuilds the
message from pybind11's signature and the arguments the call was given.
"""
import functools
import numbers
import re
import sys

_MARKERS = ("incompatible function arguments", "incompatible constructor arguments")
_SIGNATURE = re.compile(r"^\s*1\. ([\w.]*)\((.*)\)(?: -> .*)?$", re.M)
_TYPE_NAMES = {"handle": None, "object": None, "args": None, "kwargs": None, "int": "int",
               "float": "float", "bool": "bool", "str": "str"}


def _split_top_level(text):
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def _parameters(text):
    """(name, type text, has default, kind) for each parameter of a pybind11 signature."""
    params = []
    for part in _split_top_level(text):
        kind = "var_positional" if part.startswith("*") and not part.startswith("**") else (
            "var_keyword" if part.startswith("**") else "normal")
        name, _, rest = part.lstrip("*").partition(":")
        type_text, _, default = rest.partition("=")
        params.append((name.strip(), type_text.strip(), bool(default.strip()), kind))
    return params


def _type_ok(type_text, value):
    simple = type_text.split(".")[-1]
    if type_text in _TYPE_NAMES and _TYPE_NAMES[type_text] is None:
        return True
    if simple == "int":
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if simple == "float":
        return isinstance(value, numbers.Real) and not isinstance(value, bool)
    if simple == "bool":
        return isinstance(value, bool)
    if simple == "str":
        return isinstance(value, str)
    if type_text.startswith("Optional["):
        return value is None or _type_ok(type_text[9:-1], value)
    if type_text.startswith(("List[", "list")):
        return isinstance(value, (list, tuple))
    if type_text.startswith(("Tuple[", "tuple")):
        return isinstance(value, tuple)
    return any(cls.__name__ == simple for cls in type(value).__mro__)


def _shown_type(type_text):
    simple = type_text.split("[")[0].split(".")[-1]
    return {"List": "list", "Tuple": "tuple", "Dict": "dict"}.get(simple, simple)


def rewrite(message, name, args, kwargs):
    """MindSpore's TypeError text for a pybind11 overload failure, or None for any other
    message."""
    if not any(marker in message for marker in _MARKERS):
        return None
    match = _SIGNATURE.search(message)
    if match is None:
        return "For '%s', the arguments are invalid." % name
    params = _parameters(match.group(2))
    if params and params[0][0] == "self":
        params = params[1:]
    named = {p[0]: p for p in params if p[3] == "normal"}
    accepts_kwargs = any(p[3] == "var_keyword" for p in params)
    for key in kwargs:
        if key not in named and not accepts_kwargs:
            return "For '%s', got an unexpected keyword argument '%s'." % (name, key)
    positional = [p for p in params if p[3] == "normal"]
    if len(args) > len(positional) and not any(p[3] == "var_positional" for p in params):
        return "For '%s', takes at most %d positional arguments but %d were given." % (
            name, len(positional), len(args))
    for i, param in enumerate(positional):
        pname, type_text, has_default, _ = param
        if i < len(args):
            value = args[i]
        elif pname in kwargs:
            value = kwargs[pname]
        else:
            if not has_default:
                return "For '%s', the argument '%s' is required, but it was not given." % (name, pname)
            continue
        if not _type_ok(type_text, value):
            return "For '%s', the type of '%s' should be %s, but got %s." % (
                name, pname, _shown_type(type_text), type(value).__name__)
    expected = ", ".join(p[0] for p in params)
    return "For '%s', the arguments are invalid: expected (%s), but got (%s)." % (
        name, expected, ", ".join([type(a).__name__ for a in args] + ["%s=%s" % (k, type(v).__name__)
                                                                    for k, v in kwargs.items()]))


def _wrap_function(fn, name):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            text = rewrite(str(e), name, args, kwargs)
            if text is None:
                raise
        raise TypeError(text)

    call.__gradstep_checked__ = True
    return call


def _wrap_init(cls):
    init = cls.__dict__["__init__"]

    def __init__(self, *args, **kwargs):
        try:
            init(self, *args, **kwargs)
            return
        except TypeError as e:
            text = rewrite(str(e), cls.__name__, args, kwargs)
            if text is None:
                raise
        raise TypeError(text)

    __init__.__doc__ = getattr(init, "__doc__", None)
    __init__.__gradstep_checked__ = True
    cls.__init__ = __init__


def _is_bound_from_cpp(obj):
    return type(obj).__name__ == "builtin_function_or_method" and not getattr(obj, "__gradstep_checked__", False)


def install():
    """Wraps the C++ modules' functions and constructors (once per process)."""
    for module_name, module in list(sys.modules.items()):
        if not (module_name == "mindspore" or module_name.startswith("mindspore.")):
            continue
        if getattr(module, "__file__", None) is not None:
            continue  # a Python module: its functions raise their own errors
        for attr, value in list(vars(module).items()):
            if attr.startswith("__"):
                continue
            if _is_bound_from_cpp(value) and getattr(value, "__module__", None) == module_name:
                setattr(module, attr, _wrap_function(value, attr))
            elif isinstance(value, type) and "__init__" in value.__dict__ \
                    and type(value.__dict__["__init__"]).__name__ == "instancemethod" \
                    and not getattr(value.__dict__["__init__"], "__gradstep_checked__", False):
                _wrap_init(value)


install()

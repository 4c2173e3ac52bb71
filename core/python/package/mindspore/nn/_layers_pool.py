"""nn.MaxPool1d/2d and nn.AvgPool1d/2d with MindSpore 2.2's whole signatures: pad_mode 'valid',
'same' or 'pad' with padding, dilation, ceil_mode, return_indices, count_include_pad and
divisor_override. The plain cases run the C++ 2-D pooling kernels (1-D input as a 1 x L plane);
the others the composite pooling of ops/_functional_pool.py, which records each gather and the
window reduction, so gradients and the debugger see them."""
import mindspore.nn as _nn
from mindspore import ops
from mindspore.ops import _functional_pool as _P

__all__ = ["MaxPool1d", "AvgPool1d"]

_CMaxPool2d = _nn.MaxPool2d
_CAvgPool2d = _nn.AvgPool2d

_MAX_OPTIONS = (("dilation", 1), ("return_indices", False), ("ceil_mode", False))
_AVG_OPTIONS = (("ceil_mode", False), ("count_include_pad", True), ("divisor_override", None))


def _kernel_arg(who, name, value, n):
    if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
        raise TypeError("For '%s', the type of '%s' must be int or tuple, but got %s."
                        % (who, name, type(value).__name__))
    values = (value,) if isinstance(value, int) else tuple(value)
    if len(values) not in (1, n) or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in values):
        raise ValueError("For '%s', the '%s' must be a positive int or a tuple of %d positive ints, but got %s."
                         % (who, name, n, value))
    return value


def _pad_mode_arg(who, pad_mode):
    if not isinstance(pad_mode, str) or pad_mode.upper() not in ("SAME", "VALID", "PAD"):
        raise ValueError("For '%s', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got %s."
                         % (who, pad_mode))
    return pad_mode.upper()


def _options(who, defaults, args, kwargs, extra=()):
    """The pool's optional arguments after pad_mode and padding, positional or by keyword."""
    names = [name for name, _ in defaults] + list(extra)
    values = dict(defaults)
    values.update({name: None for name in extra})
    for name, value in zip(names, args):
        values[name] = value
    for name in list(kwargs):
        if name in values:
            values[name] = kwargs.pop(name)
    if kwargs:
        raise TypeError("For '%s', got unexpected keyword arguments %s." % (who, sorted(kwargs)))
    return values


def _is_zero(padding):
    return padding == 0 or (isinstance(padding, (tuple, list)) and not any(padding))


def _settings(who, max_pool, pad_mode, padding, options):
    """(the options, whether the composite must run) after MindSpore's checks."""
    mode = _pad_mode_arg(who, pad_mode)
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple, list)):
        raise TypeError("For '%s', the type of 'padding' must be int or tuple, but got %s."
                        % (who, type(padding).__name__))
    if mode != "PAD" and not _is_zero(padding):
        raise ValueError("For '%s', the 'padding' must be 0 when 'pad_mode' is '%s', but got %s; "
                         "use pad_mode='pad'." % (who, mode.lower(), padding))
    defaults = _MAX_OPTIONS if max_pool else _AVG_OPTIONS
    return mode == "PAD" or any(options.get(name, default) != default for name, default in defaults)


class _GeneralPool:
    """What a pool Cell keeps for the composite path and how it runs it."""

    def __init__(self, who, max_pool, kernel_size, stride, pad_mode, padding, options, n):
        self.who, self.max_pool, self.n = who, max_pool, n
        self.kernel_size, self.stride, self.mode, self.padding = kernel_size, stride, pad_mode.lower(), padding
        self.options = options

    def __call__(self, x):
        o = self.options
        if self.max_pool:
            return _P._pool(self.who, x, self.kernel_size, self.stride, self.padding, o["dilation"], o["ceil_mode"],
                            self.n, "max", pad_mode=self.mode, return_indices=o["return_indices"])
        return _P._pool(self.who, x, self.kernel_size, self.stride, self.padding, 1, o["ceil_mode"], self.n, "avg",
                        pad_mode=self.mode, count_include_pad=o["count_include_pad"],
                        divisor_override=o["divisor_override"])


# ------------------------------------------------------------------------------------------------
# MaxPool2d / AvgPool2d: the C++ Cells, whose construct hands the general cases to the composite.

def _wrap_pool2d(cls, who, max_pool):
    cpp_init = cls.__init__
    cpp_construct = cls.construct
    defaults = _MAX_OPTIONS if max_pool else _AVG_OPTIONS

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, *args, **kwargs):
        _kernel_arg(who, "kernel_size", kernel_size, 2)
        _kernel_arg(who, "stride", stride, 2)
        options = _options(who, defaults, args, kwargs, extra=("data_format",))
        data_format = options.pop("data_format") or "NCHW"
        general = _settings(who, max_pool, pad_mode, padding, options)
        # The C++ part holds the plain window (the general case never runs it).
        cpp_init(self, kernel_size, stride, "valid" if general else pad_mode.lower(), data_format)
        self.__dict__.update(kernel_size=kernel_size, stride=stride, pad_mode=pad_mode.upper(),
                             padding=padding, format=data_format, **options)
        self.__dict__["_general"] = _GeneralPool(who, max_pool, kernel_size, stride, pad_mode, padding,
                                                 options, 2) if general else None

    def construct(self, x):
        general = self.__dict__.get("_general")
        if general is None:
            return cpp_construct(self, x)
        if self.format != "NCHW":
            x = ops.transpose(x, (0, 3, 1, 2))
            out = general(x)
            back = (0, 2, 3, 1)
            return tuple(ops.transpose(o, back) for o in out) if isinstance(out, tuple) else ops.transpose(out, back)
        return general(x)

    __init__.__doc__ = cpp_init.__doc__
    cls.__init__ = __init__
    cls.construct = construct


_wrap_pool2d(_CMaxPool2d, "MaxPool2d", True)
_wrap_pool2d(_CAvgPool2d, "AvgPool2d", False)


# ------------------------------------------------------------------------------------------------
# MaxPool1d / AvgPool1d

class _Pool1d(_nn.Cell):
    _who = "MaxPool1d"
    _max = True

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, *args, **kwargs):
        super().__init__()
        who = self._who
        _kernel_arg(who, "kernel_size", kernel_size, 1)
        _kernel_arg(who, "stride", stride, 1)
        defaults = (_MAX_OPTIONS if self._max else _AVG_OPTIONS[:2])
        options = _options(who, defaults, args, kwargs)
        general = _settings(who, self._max, pad_mode, padding, options)
        self.kernel_size, self.stride, self.pad_mode, self.padding = kernel_size, stride, pad_mode.upper(), padding
        for name, value in options.items():
            setattr(self, name, value)
        if general:
            if not self._max:
                options.setdefault("divisor_override", None)
            self.__dict__["_general"] = _GeneralPool(who, self._max, kernel_size, stride, pad_mode, padding,
                                                     options, 1)
            self.__dict__["_plain"] = None
        else:
            self.__dict__["_general"] = None
            k = kernel_size if isinstance(kernel_size, int) else kernel_size[0]
            s = stride if isinstance(stride, int) else stride[0]
            plain = _CMaxPool2d if self._max else _CAvgPool2d
            self.__dict__["_plain"] = plain((1, k), (1, s), pad_mode.lower())

    def construct(self, x):
        if x.ndim not in (2, 3):
            raise ValueError("For '%s', the dimension of input must be 2 or 3, but got %d." % (self._who, x.ndim))
        if self.__dict__["_general"] is not None:
            return self.__dict__["_general"](x)
        squeeze_batch = x.ndim == 2
        if squeeze_batch:
            x = ops.expand_dims(x, 0)
        out = ops.squeeze(self.__dict__["_plain"](ops.expand_dims(x, 2)), 2)
        return ops.squeeze(out, 0) if squeeze_batch else out

    def extend_repr(self):
        return "kernel_size=%s, stride=%s, pad_mode=%s" % (self.kernel_size, self.stride, self.pad_mode)


class MaxPool1d(_Pool1d):
    """The maximum of each window of (N, C, L) or (C, L) input."""
    _who = "MaxPool1d"
    _max = True


class AvgPool1d(_Pool1d):
    """The mean of each window of (N, C, L) or (C, L) input."""
    _who = "AvgPool1d"
    _max = False


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

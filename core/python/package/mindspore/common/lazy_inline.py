"""mindspore.lazy_inline: marks a Cell's __init__ so that graph mode compiles the Cell's graph
once and reuses it (a compile-time saving on Ascend). It changes no value: the decorated __init__
runs as written."""
import functools

import mindspore

__all__ = ["lazy_inline"]


def lazy_inline(fn=None, attrs=None):
    if attrs is not None and not isinstance(attrs, (str, list, tuple)):
        raise TypeError("For 'lazy_inline', the 'attrs' must be a str or a list/tuple of str, but got %s."
                        % type(attrs).__name__)

    def wrap(init):
        @functools.wraps(init)
        def wrapped(self, *args, **kwargs):
            init(self, *args, **kwargs)
            self.__dict__["_lazy_inline_attrs"] = attrs

        return wrapped

    return wrap(fn) if fn is not None else wrap


if not hasattr(mindspore, "lazy_inline"):
    mindspore.lazy_inline = lazy_inline

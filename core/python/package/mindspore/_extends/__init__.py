"""mindspore._extends: cell_attr_register, which records a Cell's constructor arguments."""
import functools
import inspect

__all__ = ["cell_attr_register"]


def _record_arguments(init, attrs):
    signature = inspect.signature(init)

    @functools.wraps(init)
    def wrapper(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(list(bound.arguments.items())[1:])
        if attrs is not None:
            arguments = {k: v for k, v in arguments.items() if k in attrs}
        init(self, *args, **kwargs)
        # MindSpore's form: the class name followed by the arguments as a dict.
        self.cell_init_args = type(self).__name__ + str(arguments)

    return wrapper


def cell_attr_register(fn=None, attrs=None):
    """Decorates a Cell's __init__ so the Cell keeps its arguments (cell_init_args). Used bare
    (@cell_attr_register) or with attrs, the names to keep (@cell_attr_register(attrs=[...]))."""
    if fn is not None:
        return _record_arguments(fn, attrs)
    return lambda init: _record_arguments(init, attrs)

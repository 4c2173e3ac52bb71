"""mindspore.common.api: the compilation decorators."""
import inspect

from mindspore import jit, ms_function
from mindspore.common._graph_executor import _CellGraphExecutor, _cell_graph_executor  # noqa: F401

__all__ = ["jit", "jit_class", "ms_function", "ms_class"]


def jit_class(cls):
    """Marks a user class whose instances graph-mode code may use (their attributes read and
    their methods called). In PyNative mode the class is unchanged."""
    if not inspect.isclass(cls):
        raise TypeError("Decorator jit_class can only be used for class type, but got %s." % (cls,))
    import mindspore.nn
    if issubclass(cls, mindspore.nn.Cell):
        raise TypeError("Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: "
                        "%s<>." % cls.__name__)
    setattr(cls, "__ms_class__", True)
    return cls


def ms_class(cls):
    """The older name of jit_class (MindSpore 1.x)."""
    return jit_class(cls)

"""mindspore.common.api._cell_graph_executor: MindSpore's graph executor object. Scripts and
MindSpore's own tests use it to compile a Cell for given inputs without running it
(`_cell_graph_executor.compile(net, *inputs)`, where shape and type errors surface) and to run a
Cell as a compiled graph (`_cell_graph_executor(net, *inputs)`).

MindSpore's executor builds a graph whatever the context mode; gradstep compiles a Cell while graph
mode is on, so both calls switch graph mode on for their duration (Cell.compile, the jit runtime's
ahead-of-time compile, does the work). Cells gradstep runs as Python in graph mode too (the
loss-scale cells, Note in jit_runtime.cpp compilesCell) compile to nothing, as they would run.
"""
import contextlib

import mindspore as _ms


@contextlib.contextmanager
def _graph_mode():
    mode = _ms.get_context("mode")
    if mode == _ms.GRAPH_MODE:
        yield
        return
    _ms.set_context(mode=_ms.GRAPH_MODE)
    try:
        yield
    finally:
        _ms.set_context(mode=mode)


def _arguments_key(args, kwargs):
    """What a compiled graph is specialized on: each Tensor's shape and dtype, other values as
    written (MindSpore's generate_arguments_key plays this role)."""
    def one(value):
        if isinstance(value, _ms.Tensor):
            return "T%s%s" % (value.dtype, tuple(value.shape))
        if isinstance(value, (tuple, list)):
            return "(" + ",".join(one(v) for v in value) + ")"
        return repr(value)
    return one(tuple(args) + tuple(sorted(kwargs.items())))


class _CellGraphExecutor:
    """compile(obj, *args, phase='predict', ...) -> (full phase, whether it compiled now);
    obj(*args) as a compiled graph by calling the executor."""

    def compile(self, obj, *args, phase='predict', do_convert=True, jit_config_dict=None, **kwargs):
        if not hasattr(obj, "construct"):
            raise AttributeError("The class {} dose not have method construct".format(type(obj).__name__))
        full_phase = "%s.%d.%s" % (phase, id(obj), _arguments_key(args, kwargs))
        before = _ms._jit_stats()["compiles"]
        with _graph_mode():
            obj.compile(*args, **kwargs)
        return full_phase, _ms._jit_stats()["compiles"] != before

    def __call__(self, obj, *args, phase='predict'):
        return self.run(obj, *args, phase=phase)

    def run(self, obj, *args, phase='predict'):
        """Runs obj's graph for these inputs (compiled first if it is not yet)."""
        with _graph_mode():
            return obj(*args)


_cell_graph_executor = _CellGraphExecutor()

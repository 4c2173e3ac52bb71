"""mindspore.export / mindspore.load and nn.GraphCell: MindSpore's deployment formats (MINDIR,
AIR, ONNX) are compiled graphs for MindSpore's runtimes and inference engines. gradstep debugs
training in its own runtime and writes none of them: these names exist so that a script importing
them runs, and calling one says plainly what is not done (weights are saved with
save_checkpoint, which writes MindSpore's own .ckpt format)."""

__all__ = ["export", "load"]

_FORMATS = ("MINDIR", "AIR", "ONNX")


def _refuse(what):
    raise RuntimeError("%s: gradstep does not write or read MindSpore's deployment model files (MINDIR, "
                       "AIR, ONNX); save the weights with mindspore.save_checkpoint, which writes MindSpore's "
                       ".ckpt format, and export the model with MindSpore itself." % what)


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    """Refused: see the module docstring. The arguments are checked as MindSpore checks them."""
    if not isinstance(file_name, str):
        raise TypeError("For 'export', the argument 'file_name' must be str, but got %s."
                        % type(file_name).__name__)
    if file_format not in _FORMATS:
        raise ValueError("For 'export', 'file_format' must be one of %s, but got %r."
                         % (list(_FORMATS), file_format))
    _refuse("For 'export', %s file '%s'" % (file_format, file_name))


def load(file_name, **kwargs):
    """Refused: see the module docstring."""
    if not isinstance(file_name, str):
        raise ValueError("For 'load', the argument 'file_name' must be str, but got %s."
                         % type(file_name).__name__)
    _refuse("For 'load', file '%s'" % file_name)


def _graph_cell_class():
    import mindspore.nn as _nn

    class GraphCell(_nn.Cell):
        """Runs a graph that mindspore.load read: refused, as load is (see the module docstring)."""

        def __init__(self, graph, params_init=None, obf_random_seed=None):
            super().__init__()
            _refuse("For 'GraphCell', the graph %r" % (graph,))

    _nn.GraphCell = GraphCell
    return GraphCell


GraphCell = _graph_cell_class()

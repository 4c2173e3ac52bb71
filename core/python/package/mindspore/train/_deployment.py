"""mindspore.export / mindspore.load and nn.GraphCell: MindSpore's deployment formats.

MINDIR is written and read (_mindir.py): export compiles the Cell with graph mode's compiler and
writes the graph with its Parameters; load reads a MINDIR file (gradstep's or MindSpore's) into a
FuncGraph that nn.GraphCell runs on the graph executor. AIR is Ascend's format and ONNX is not
written by gradstep; both are refused with MindSpore-style errors.
"""
import os

import mindspore as _ms
from mindspore.train import _mindir

__all__ = ["export", "load"]

_FORMATS = ("AIR", "ONNX", "MINDIR")


def _check_inputs(inputs):
    for item in inputs:
        if isinstance(item, (tuple, list)):
            _check_inputs(item)
        elif not isinstance(item, _ms.Tensor):
            raise TypeError("For 'export', the inputs of the network must be Tensor (also inside tuples and "
                            "lists), but got %s." % type(item).__name__)


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    """Writes net's graph for `inputs` to file_name (".mindir" appended) in MindSpore's MINDIR format."""
    if not isinstance(file_name, str):
        raise TypeError("For 'export', the argument 'file_name' must be str, but got %s."
                        % type(file_name).__name__)
    if file_format not in _FORMATS:
        raise ValueError("For 'export', 'file_format' must be one of %s, but got %r."
                         % (list(_FORMATS), file_format))
    if file_format == "AIR":
        raise RuntimeError("For 'export', the AIR format can only be exported on the Ascend platform "
                           "(device_target='Ascend'); gradstep runs on CPU. Export 'MINDIR' instead.")
    if file_format == "ONNX":
        raise RuntimeError("For 'export', gradstep does not write ONNX files; it writes MindSpore's 'MINDIR' "
                           "format (file_format='MINDIR'), which mindspore.load and nn.GraphCell run.")
    for key in ("enc_key", "obf_config"):
        if kwargs.get(key) is not None:
            raise ValueError("For 'export', '%s' (encrypted or obfuscated MINDIR files) is not supported by "
                             "gradstep." % key)
    if not isinstance(net, _ms.nn.Cell):
        raise TypeError("For 'export', the argument 'net' must be a Cell, but got %s." % type(net).__name__)
    _check_inputs(inputs)
    if not file_name.endswith(".mindir"):
        file_name += ".mindir"
    file_name = os.path.realpath(file_name)
    description = _ms._export_graph(net, tuple(inputs))
    os.makedirs(os.path.dirname(file_name), exist_ok=True)
    _mindir.write_model(description, file_name)


class FuncGraph:
    """A graph mindspore.load read from a MINDIR file: what nn.GraphCell runs."""

    def __init__(self, file_name, description, parameter_names):
        self.file_name = file_name
        self._description = description
        self._parameter_names = parameter_names
        self._runner = _ms._GraphRunner(description)
        specs = self._runner.input_specs()
        self._argument_specs = specs[:len(specs) - len(parameter_names)]

    def __repr__(self):
        return "FuncGraph('%s' from %s: %d inputs, %d parameters, %d nodes)" % (
            self._description["name"], self.file_name, len(self._argument_specs), len(self._parameter_names),
            len(self._description["nodes"]))


def load(file_name, **kwargs):
    """Reads a MINDIR file into a FuncGraph (run it with nn.GraphCell)."""
    if not isinstance(file_name, str):
        raise ValueError("For 'load', the argument 'file_name' must be string, but got %s."
                         % type(file_name).__name__)
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with '.mindir', please "
                         "input the correct 'file_name': '%s'." % file_name)
    if not os.path.isfile(file_name):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) does not exist, please check "
                         "whether the 'file_name' is correct: '%s'." % file_name)
    if kwargs.get("dec_key") is not None or kwargs.get("obf_func") is not None:
        raise ValueError("For 'load', 'dec_key' and 'obf_func' (encrypted or obfuscated MINDIR files) are not "
                         "supported by gradstep.")
    file_name = os.path.realpath(file_name)
    try:
        with open(file_name, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RuntimeError("Load MindIR failed. The file '%s' cannot be read: %s." % (file_name, e.strerror)) from None
    try:
        description, parameter_names = _mindir.read_model(data)
        return FuncGraph(file_name, description, parameter_names)
    except (MemoryError, ImportError):  # not the file's fault (ImportError: protobuf is not installed)
        raise
    except Exception as e:  # whatever in the file stops the graph from being built is the file's fault
        raise RuntimeError("Load MindIR failed. The file '%s' cannot be run: %s." % (file_name, str(e).rstrip(".")))\
            from None


def _graph_cell_class():
    import mindspore.nn as _nn

    class GraphCell(_nn.Cell):
        """Runs a graph that mindspore.load read, with its Parameters (params_init replaces them by name)."""

        def __init__(self, graph, params_init=None, obf_random_seed=None):
            super().__init__()
            if not isinstance(graph, FuncGraph):
                raise TypeError("For 'GraphCell', the argument 'graph' must be a FuncGraph loaded from MindIR, "
                                "but got %s." % type(graph).__name__)
            if obf_random_seed is not None:
                raise ValueError("For 'GraphCell', 'obf_random_seed' (obfuscated MINDIR files) is not supported "
                                 "by gradstep.")
            self.graph = graph
            self._graph_parameters = list(graph._description["parameters"])
            if params_init is None:
                return
            if not isinstance(params_init, dict):
                raise TypeError("For 'GraphCell', the argument 'params_init' must be a dict, but got %s."
                                % type(params_init).__name__)
            for name, value in params_init.items():
                if name not in graph._parameter_names:
                    raise ValueError("For 'GraphCell', the parameter '%s' in 'params_init' is not a parameter of "
                                     "the graph (%s)." % (name, ", ".join(graph._parameter_names)))
                k = graph._parameter_names.index(name)
                old = self._graph_parameters[k]
                value = value if isinstance(value, _ms.Tensor) else _ms.Tensor(value)
                if tuple(value.shape) != tuple(old.shape) or value.dtype != old.dtype:
                    raise ValueError("For 'GraphCell', the parameter '%s' in 'params_init' has shape %s and dtype %s, "
                                     "but the graph's has shape %s and dtype %s."
                                     % (name, list(value.shape), value.dtype, list(old.shape), old.dtype))
                self._graph_parameters[k] = value

        def __call__(self, *inputs):
            specs = self.graph._argument_specs
            if len(inputs) != len(specs):
                raise TypeError("For 'GraphCell', the graph loaded from '%s' takes %d inputs, but got %d."
                                % (self.graph.file_name, len(specs), len(inputs)))
            for k, (item, (dtype, shape)) in enumerate(zip(inputs, specs)):
                if not isinstance(item, _ms.Tensor):
                    raise TypeError("For 'GraphCell', input %d must be a Tensor, but got %s."
                                    % (k, type(item).__name__))
                if tuple(item.shape) != tuple(shape) or item.dtype != dtype:
                    raise ValueError("For 'GraphCell', input %d must have shape %s and dtype %s as the graph was "
                                     "exported, but got shape %s and dtype %s."
                                     % (k, list(shape), dtype, list(item.shape), item.dtype))
            outputs = self.graph._runner.run(list(inputs) + self._graph_parameters)
            return tuple(outputs) if self.graph._description["tuple_output"] else outputs[0]

        def construct(self, *inputs):
            return self(*inputs)

    _nn.GraphCell = GraphCell
    return GraphCell


GraphCell = _graph_cell_class()

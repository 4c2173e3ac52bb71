"""The micro-batch and parallel wrappers of MindSpore 2.2 on one device: MicroBatchInterleaved,
PipelineCell and GradAccumulationCell (the batch cut into pieces along axis 0, the network run on
each, the outputs summed), ParameterUpdate and VirtualDatasetCellTriple."""
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, log, ops

__all__ = ["MicroBatchInterleaved", "PipelineCell", "GradAccumulationCell", "ParameterUpdate",
           "VirtualDatasetCellTriple"]


def _count(who, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("For '%s', the argument '%s' must be integer, but got the type : %s."
                        % (who, name, type(value)))
    if value <= 0:
        raise ValueError("For '%s', the argument '%s' must be large than 0, but got %d." % (who, name, value))
    return value


def _micro_inputs(inputs, i, parts):
    """The i-th of parts slices along axis 0 of every input: rows [i * B // parts, (i + 1) * B // parts)."""
    sliced = []
    for x in inputs:
        if isinstance(x, Tensor) and x.ndim > 0:
            rows = x.shape[0]
            sliced.append(x[i * rows // parts:(i + 1) * rows // parts])
        else:
            sliced.append(x)
    return sliced


def _add(a, b):
    if isinstance(a, (tuple, list)):
        return type(a)(_add(x, y) for x, y in zip(a, b))
    return a + b


class _MicroBatchSum(_nn.Cell):
    _who = "MicroBatchInterleaved"

    def __init__(self, network, parts):
        super().__init__(auto_prefix=False)
        if not isinstance(network, _nn.Cell):
            raise TypeError("For '%s', the argument 'network' must be a Cell, but got %s."
                            % (self._who, type(network).__name__))
        self.network = network
        self.__dict__["_parts"] = parts

    def construct(self, *inputs):
        parts = self.__dict__["_parts"]
        total = None
        for i in range(parts):
            out = self.network(*_micro_inputs(inputs, i, parts))
            total = out if total is None else _add(total, out)
        return total


class MicroBatchInterleaved(_MicroBatchSum):
    """network over interleave_num slices of the batch, the outputs summed (MindSpore overlaps
    one slice's communication with another's computation; one device runs them in turn)."""
    _who = "MicroBatchInterleaved"

    def __init__(self, network, interleave_num=2):
        super().__init__(network, _count(self._who, "interleave_num", interleave_num))
        self.interleave_num = interleave_num


class PipelineCell(_MicroBatchSum):
    """network over micro_size micro-batches of the batch, the outputs summed (pipeline stages
    run them on different devices; one device runs them in turn)."""
    _who = "PipelineCell"

    def __init__(self, network, micro_size):
        super().__init__(network, _count(self._who, "micro_size", micro_size))
        self.micro_size = micro_size


class GradAccumulationCell(_MicroBatchSum):
    """network over micro_size micro-batches of the batch, the outputs summed, so the gradient is
    accumulated over them (the parallel modes schedule the micro-batches; one device runs them in
    turn)."""
    _who = "GradAccumulationCell"

    def __init__(self, network, micro_size):
        super().__init__(network, _count(self._who, "micro_size", micro_size))
        self.micro_size = micro_size


class ParameterUpdate(_nn.Cell):
    """Writes its input into param and returns the input."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError("For 'ParameterUpdate', 'param' must be 'Parameter', but got %s." % type(param))
        self._param = param

    def construct(self, x):
        ops.assign(self._param, x)
        return x


class VirtualDatasetCellTriple(_nn.Cell):
    """Calls backbone with its three inputs (the data-parallel to model-parallel layout change
    it marks concerns semi-auto parallel compilation only)."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        log.warning("WARN_DEPRECATED: The usage of VirtualDatasetCellTriple is deprecated.")
        self._backbone = backbone

    def construct(self, a, b, c):
        return self._backbone(a, b, c)


for _name in __all__:
    setattr(_nn, _name, globals()[_name])

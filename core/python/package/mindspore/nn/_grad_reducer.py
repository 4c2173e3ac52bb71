"""nn.DistributedGradReducer: the gradients of data-parallel training summed over the ranks (one
AllReduce node per gradient, recorded like any op) and, with mean, divided by the degree; and
TrainOneStepCell's reducer in data-parallel mode, as MindSpore inserts it."""
import mindspore.communication as _comm
import mindspore.nn as _nn
from mindspore.communication.management import GlobalComm, get_group_size
from mindspore.parallel import _utils as _parallel


class DistributedGradReducer(_nn.Cell):
    """DistributedGradReducer(parameters, mean=None, degree=None, fusion_type=1, group=WORLD):
    mean None takes set_auto_parallel_context's gradients_mean, degree None the group's size."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(auto_prefix=False)
        if mean is None:
            mean = _parallel._get_gradients_mean()
        if not isinstance(mean, bool):
            raise TypeError("For 'DistributedGradReducer', the 'mean' must be bool, but got {}."
                            .format(type(mean).__name__))
        if degree is None:
            degree = get_group_size(group)
        elif isinstance(degree, bool) or not isinstance(degree, int) or degree <= 0:
            raise ValueError("For 'DistributedGradReducer', degree should be large than 0 and be int, "
                             "degree: {}.".format(degree))
        self.mean = mean
        self.degree = degree
        self.group = group
        self.fusion_type = fusion_type
        self._parameter_count = len(parameters)

    def construct(self, grads):
        return _comm._reduce_gradients(grads, self.mean, self.degree, self.group)


_nn.DistributedGradReducer = DistributedGradReducer

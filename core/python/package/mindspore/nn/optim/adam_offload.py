"""mindspore.nn.optim.adam_offload: AdamOffload, deprecated since MindSpore 2.0 in favour of Adam.
MindSpore computes its update on the host (AdamNoUpdateParam, whose documented step has no Nesterov
term: delta = -lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps)) and adds it to the
parameters; gradstep updates every parameter on the host anyway, so this is Adam's update without
the Nesterov step."""
import mindspore.nn as _nn
from mindspore import log as logger
from mindspore.nn.optim.adam import Adam

__all__ = ["AdamOffload"]


class AdamOffload(Adam):
    """Adam's arguments; use_nesterov is checked but the update takes no Nesterov step."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        logger.warning("'AdamOffload' is deprecated from version 2.0 and will be removed in a future version, "
                       "use 'Adam' instead.")
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)
        self.use_nesterov = False


_nn.AdamOffload = AdamOffload

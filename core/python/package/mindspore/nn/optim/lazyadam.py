"""mindspore.nn.optim.lazyadam: LazyAdam. Its lazy (row-wise) update only differs from Adam's for
sparse gradients; gradstep's gradients are dense, for which MindSpore runs the Adam kernel, so this
is Adam with LazyAdam's arguments (no AMSGrad)."""
import mindspore.nn as _nn
from mindspore.nn.optim.adam import Adam

__all__ = ["LazyAdam"]


class LazyAdam(Adam):
    """Adam's update (bias correction folded into the step size, optional Nesterov)."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)


_nn.LazyAdam = LazyAdam

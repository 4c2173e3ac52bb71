"""Optimizer arguments as MindSpore checks them: betas and eps must be floats (an int is a
TypeError before any range check), SGD refuses a dynamic weight decay, list or 1-D Tensor learning
rates of the groups must have one length, and order_params sets is_group_params_ordered."""
import numpy as np

import mindspore.nn as nn
from mindspore import Tensor

from _check import raises


def params():
    return nn.Dense(3, 2).trainable_params()


for cls in (nn.LazyAdam, nn.AdamWeightDecay, nn.AdaMax, nn.Lamb):
    lr = 0.1
    raises(TypeError, cls, params(), lr, beta1=2, match="the type of 'beta1' should be 'float', but got '2' with type 'int'")
    raises(TypeError, cls, params(), lr, eps=1, match="the type of 'eps' should be 'float'")
    raises(ValueError, cls, params(), lr, beta2=2.0, match="'beta2' must be in range of (0.0, 1.0)")
raises(TypeError, nn.Adam, params(), 0.1, beta1=2, loss_scale=2.0, match="'beta1' should be 'float'")


class Decay(nn.Cell):
    def construct(self, step):
        return Tensor(0.1)


wd_error = ("For 'SGD', dynamic weight decay is currently not supported, the argument 'weight_decay' or "
            "'weight_decay' set in grouped 'params' must be float or int type.")
raises(TypeError, nn.SGD, params(), 0.1, weight_decay=Decay(), match=wd_error)
w, b = params()
raises(TypeError, nn.SGD, [{'params': [w], 'weight_decay': Decay()}, {'params': [b]}], 0.1, match=wd_error)
assert nn.SGD(params(), 0.1, weight_decay=1).weight_decay == 1.0  # an int is a fixed decay

# Dynamic learning rates of different lengths in the groups.
w, b = params()
raises(ValueError, nn.Momentum, [{'params': [w], 'lr': (0.1, 0.2, 0.3)}, {'params': [b]}], (0.1, 0.2), 0.9,
       match="the Tensor type dynamic learning rate in group must be the same size as the argument 'learning_rate'")
raises(ValueError, nn.SGD, [{'params': [w], 'lr': Tensor(np.ones(4, np.float32))}, {'params': [b], 'lr': [0.1] * 3}],
       match="must be the same size")
opt = nn.Momentum([{'params': [w], 'lr': (0.1, 0.2, 0.3)}, {'params': [b]}], (0.3, 0.2, 0.1), 0.9)
assert opt.dynamic_lr and not opt.is_group_params_ordered

opt = nn.SGD([{'params': [b]}, {'params': [w], 'lr': 0.2}, {'order_params': [w, b]}], 0.1)
assert opt.is_group_params_ordered is True and [p.name for p in opt.parameters] == [w.name, b.name]

# Group learning rates keep MindSpore's names ('learning_rate_group_<group>'; the default one
# 'learning_rate'), whether fixed or dynamic, in get_lr_parameter and parameters_dict.
w, b = params()
opt = nn.SGD([{'params': [w], 'lr': 0.2}, {'params': [b]}], 0.1)
assert [opt.get_lr_parameter(p).name for p in (w, b)] == ['learning_rate_group_0', 'learning_rate']
assert {'learning_rate_group_0', 'learning_rate'} <= set(opt.parameters_dict())
opt = nn.SGD([{'params': [b]}, {'params': [w], 'lr': [0.2, 0.1]}], [0.1, 0.3])
assert {'learning_rate_group_1', 'learning_rate'} <= set(opt.parameters_dict())

"""mindspore.nn.optim.lars: LARS, which rescales each gradient by a layer-wise trust ratio (the
LARSUpdate kernel) and hands the result to the optimizer it wraps.

The weight decay moves from the wrapped optimizer into LARS (it enters the trust ratio), so the
wrapped optimizer must not decay again: a Python optimizer has its decay switched off as MindSpore
does; a core (C++) optimizer cannot be changed, so LARS subtracts the decay it is about to add."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.train._checks import check_value_type

__all__ = ["LARS"]


def _default_filter(param):
    return "LayerNorm" not in param.name and "bias" not in param.name


def _core_decay_flags(optimizer):
    # The C++ optimizers decay every parameter whose name holds neither 'beta' nor 'gamma'.
    return tuple("beta" not in p.name and "gamma" not in p.name for p in optimizer.parameters)


class LARS(Optimizer):
    """ratio = coefficient * ||w|| / (||g|| + wd * ||w|| + epsilon) (1 when either norm is 0;
    min(ratio / lr, 1) with use_clip); the wrapped optimizer gets ratio * (g + wd * w) for the
    parameters lars_filter keeps, and g itself (not decayed) for the others."""

    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False, lars_filter=_default_filter):
        super().__init__(0.0, [Parameter(Tensor(0.0, _ms.float32), name="fake_param")])
        who = self.cls_name
        check_value_type("optimizer", optimizer, Optimizer, who)
        check_value_type("epsilon", epsilon, [float], who)
        check_value_type("coefficient", coefficient, [float], who)
        check_value_type("use_clip", use_clip, [bool], who)
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip = epsilon, coefficient, use_clip
        self._parameters = optimizer.parameters
        self.parameters = self._parameters
        self.param_length = len(self._parameters)
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self._parameters)
        self._core = not hasattr(optimizer, "decay_flags")
        if self._core:
            self.is_group = False
            self.decay_flags = _core_decay_flags(optimizer)
            self.weight_decay = float(optimizer.weight_decay)
            self._core_decay = self.weight_decay
            self.loss_scale, self.need_scale = 1.0, False
            self.is_group_lr, self.dynamic_lr = False, False
            self.origin_learning_rate = optimizer.learning_rate
        else:
            self.is_group = optimizer.is_group
            if optimizer._advances_step() and not optimizer.dynamic_lr:
                raise TypeError("For 'LARS', the wrapped optimizer's weight decay must be a number: LARS takes "
                                "over the weight decay, and a weight decay Cell is not supported there by "
                                "gradstep.")
            self.decay_flags = optimizer.decay_flags
            self.loss_scale, self.need_scale = optimizer.loss_scale, optimizer.need_scale
            if self.is_group:
                self.weight_decay = tuple(wd / optimizer.loss_scale for wd in optimizer.weight_decay)
                optimizer.weight_decay = tuple(0.0 for _ in optimizer.weight_decay)
            else:
                self.weight_decay = optimizer.weight_decay / optimizer.loss_scale
                optimizer.weight_decay = 0.0
            optimizer.exec_weight_decay = False
            optimizer.decay_flags = tuple(False for _ in self.decay_flags)
            optimizer.need_scale = False
            self.is_group_lr, self.dynamic_lr = optimizer.is_group_lr, optimizer.dynamic_lr
            self.origin_learning_rate = optimizer.group_lr if optimizer.is_group_lr else optimizer.learning_rate
            if use_clip and self.is_group_lr and self.dynamic_lr:
                raise ValueError("Grouped dynamic learning rate is currently not supported for the inputs optimizer "
                                 "of lars.")
            # use_clip reads the wrapped optimizer's schedule at its own step count.
            self.global_step = optimizer.global_step

    def _clip_rates(self):
        """The wrapped optimizer's rate of this step, per parameter (read before it advances)."""
        lrs = self.origin_learning_rate if self.is_group_lr else (self.origin_learning_rate,) * self.param_length
        return tuple(self._lr_value(lr) for lr in lrs)

    def _lars(self, w, g, wd, lr):
        w_norm = ops.sqrt(ops.reduce_sum(w * w))
        g_norm = ops.sqrt(ops.reduce_sum(g * g))
        ratio = self.coefficient * w_norm / (g_norm + wd * w_norm + self.epsilon)
        if self.use_clip:
            ratio = ops.minimum(ratio / ops.cast(lr, ratio.dtype), ops.ones_like(ratio))
        ones = ops.ones_like(ratio)
        ratio = ops.select(w_norm > 0, ops.select(g_norm > 0, ratio, ones), ones)
        return ratio * (g + wd * w)

    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        if self.need_scale:
            gradients = tuple(g * (1.0 / self.loss_scale) for g in gradients)
        wds = self.weight_decay if self.is_group else (self.weight_decay,) * self.param_length
        lrs = self._clip_rates() if self.use_clip else (None,) * self.param_length
        out = []
        for w, g, wd, lr, decay, lars in zip(self._parameters, gradients, wds, lrs, self.decay_flags,
                                             self.lars_flag):
            if lars:
                g = self._lars(w, g, wd if decay else 0.0, lr)
            if self._core and decay and self._core_decay > 0:
                g = g - self._core_decay * w
            out.append(g)
        return self.opt(tuple(out))


_nn.LARS = LARS

"""experimental.optim.lr_scheduler: PyTorch's learning-rate schedulers as MindSpore 2.2 defines
them over experimental optimizers. Each group's learning rate is a float32 Parameter that step()
overwrites; get_last_lr() gives those Parameters' values (Tensors). The chainable form (from the
current learning rates) serves step(); step(epoch) uses a closed form where one exists."""
import math
from bisect import bisect_right
from collections import Counter

from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.experimental.optim.optimizer import Optimizer

__all__ = ["StepLR", "LinearLR", "LRScheduler", "ExponentialLR", "PolynomialLR", "ChainedScheduler",
           "MultiplicativeLR", "ConstantLR", "MultiStepLR", "LambdaLR", "SequentialLR", "ReduceLROnPlateau",
           "CyclicLR", "CosineAnnealingWarmRestarts", "CosineAnnealingLR"]


def _value(lr):
    return float(lr.asnumpy()) if isinstance(lr, Tensor) else float(lr)


class LRScheduler:
    """Base: optimizer, last_epoch (-1 starts; otherwise every group needs 'initial_lr')."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError("{} is not an Optimizer".format(type(optimizer).__name__))
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int):
            raise TypeError("For '%s', the 'last_epoch' must be int, but got %s."
                            % (type(self).__name__, type(last_epoch).__name__))
        if last_epoch < -1:
            raise ValueError("Invalid last_epoch: {}".format(last_epoch))
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", _value(group["lr"]))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError("param 'initial_lr' is not specified in param_groups[%d] when resuming an "
                                   "optimizer" % i)
        self.base_lrs = [_value(group["initial_lr"]) for group in optimizer.param_groups]
        self.optimizer = optimizer
        self._last_lr = [group["lr"] for group in optimizer.param_groups]
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = Parameter(Tensor(last_epoch, mstype.float32),
                                    name="last_epoch_" + type(self).__name__, requires_grad=False)
        self.step()

    @property
    def _epoch(self):
        return int(round(float(self.last_epoch.asnumpy())))

    def _current(self):
        return [_value(lr) for lr in self._last_lr]

    def get_lr(self):
        raise NotImplementedError

    def get_last_lr(self):
        """The learning rate of each group, as set by the last step()."""
        return [lr.value() for lr in self._last_lr]

    def step(self, epoch=None):
        if epoch is None:
            ops.assign_add(self.last_epoch, Tensor(1.0, mstype.float32))
            values = self.get_lr()
        else:
            ops.assign(self.last_epoch, Tensor(float(epoch), mstype.float32))
            values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        for group, value in zip(self.optimizer.param_groups, values):
            ops.assign(group["lr"], Tensor(_value(value), mstype.float32))
        return True


class StepLR(LRScheduler):
    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0 or e % self.step_size != 0:
            return self._current()
        return [lr * self.gamma for lr in self._current()]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** (self._epoch // self.step_size) for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        if not isinstance(milestones, (list, tuple)) or any(not isinstance(m, int) for m in milestones):
            raise TypeError("For 'MultiStepLR', 'milestones' must be a list of int.")
        if list(milestones) != sorted(milestones):
            raise ValueError("For 'MultiStepLR', 'milestones' must be increasing, but got %s." % (milestones,))
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e not in self.milestones:
            return self._current()
        return [lr * self.gamma ** self.milestones[e] for lr in self._current()]

    def _get_closed_form_lr(self):
        passed = bisect_right(sorted(self.milestones.elements()), self._epoch)
        return [base * self.gamma ** passed for base in self.base_lrs]


class LinearLR(LRScheduler):
    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less than or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0:
            return [lr * self.start_factor for lr in self._current()]
        if e > self.total_iters:
            return self._current()
        factor = 1.0 + (self.end_factor - self.start_factor) / (
            self.total_iters * self.start_factor + (e - 1) * (self.end_factor - self.start_factor))
        return [lr * factor for lr in self._current()]

    def _get_closed_form_lr(self):
        e = min(self.total_iters, self._epoch)
        return [base * (self.start_factor + (self.end_factor - self.start_factor) * e / self.total_iters)
                for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self._epoch == 0:
            return self._current()
        return [lr * self.gamma for lr in self._current()]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** self._epoch for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        if isinstance(power, bool) or not isinstance(power, (int, float)) or power < 0:
            raise ValueError("For 'PolynomialLR', the 'power' must be a non-negative number, but got %s." % power)
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0 or e > self.total_iters:
            return self._current()
        factor = ((1.0 - e / self.total_iters) / (1.0 - (e - 1) / self.total_iters)) ** self.power
        return [lr * factor for lr in self._current()]

    def _get_closed_form_lr(self):
        e = min(self.total_iters, self._epoch)
        return [base * (1.0 - e / self.total_iters) ** self.power for base in self.base_lrs]


class ConstantLR(LRScheduler):
    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0:
            return [lr * self.factor for lr in self._current()]
        if e != self.total_iters:
            return self._current()
        return [lr / self.factor for lr in self._current()]

    def _get_closed_form_lr(self):
        scale = self.factor if self._epoch < self.total_iters else 1.0
        return [base * scale for base in self.base_lrs]


def _per_group(name, fns, optimizer):
    if not isinstance(fns, (list, tuple)):
        return [fns] * len(optimizer.param_groups)
    if len(fns) != len(optimizer.param_groups):
        raise ValueError("Expected {} lr_lambdas, but got {}".format(len(optimizer.param_groups), len(fns)))
    return list(fns)


class LambdaLR(LRScheduler):
    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _per_group("lr_lambda", lr_lambda, optimizer)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * fn(self._epoch) for base, fn in zip(self.base_lrs, self.lr_lambdas)]


class MultiplicativeLR(LRScheduler):
    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _per_group("lr_lambda", lr_lambda, optimizer)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self._epoch > 0:
            return [lr * fn(self._epoch) for lr, fn in zip(self._current(), self.lr_lambdas)]
        return self._current()


class CosineAnnealingLR(LRScheduler):
    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, current = self._epoch, self._current()
        if e == 0:
            return current
        if (e - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [lr + (base - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for lr, base in zip(current, self.base_lrs)]
        return [(1 + math.cos(math.pi * e / self.T_max)) / (1 + math.cos(math.pi * (e - 1) / self.T_max))
                * (lr - self.eta_min) + self.eta_min for lr in current]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base - self.eta_min) * (1 + math.cos(math.pi * self._epoch / self.T_max)) / 2
                for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError("Expected positive integer T_0, but got {}".format(T_0))
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError("Expected integer T_mult >= 1, but got {}".format(T_mult))
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [self.eta_min + (base - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base in self.base_lrs]

    def step(self, epoch=None):
        if epoch is None and self._epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self._epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        else:
            if epoch < 0:
                raise ValueError("Expected non-negative epoch, but got {}".format(epoch))
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i, self.T_cur = self.T_0, epoch
        ops.assign(self.last_epoch, Tensor(float(math.floor(epoch)), mstype.float32))
        for group, value in zip(self.optimizer.param_groups, self.get_lr()):
            ops.assign(group["lr"], Tensor(float(value), mstype.float32))
        return True


class CyclicLR(LRScheduler):
    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode="triangular",
                 gamma=1.0, scale_fn=None, scale_mode="cycle", last_epoch=-1):
        groups = optimizer.param_groups
        base_lrs = _per_group("base_lr", base_lr, optimizer)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, groups):
                ops.assign(group["lr"], Tensor(float(lr), mstype.float32))
        self.max_lrs = [float(v) for v in _per_group("max_lr", max_lr, optimizer)]
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma = mode, gamma
        if scale_fn is None:
            self._scale_fn = {"triangular": lambda x: 1.0, "triangular2": lambda x: 1 / (2.0 ** (x - 1)),
                              "exp_range": lambda x: gamma ** x}[mode]
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        else:
            self._scale_fn, self.scale_mode = scale_fn, scale_mode
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [float(v) for v in base_lrs]

    def get_lr(self):
        e = self._epoch
        cycle = math.floor(1 + e / self.total_size)
        x = 1.0 + e / self.total_size - cycle
        scale = x / self.step_ratio if x <= self.step_ratio else (x - 1) / (self.step_ratio - 1)
        base_lrs = getattr(self, "base_lrs", None) or self._current()
        out = []
        for base, top in zip(base_lrs, self.max_lrs):
            height = (top - base) * scale
            factor = self._scale_fn(cycle if self.scale_mode == "cycle" else e)
            out.append(base + height * factor)
        return out


class ReduceLROnPlateau:
    """Lowers each group's learning rate by `factor` when the metric given to step() has not
    improved for `patience` epochs (mode 'min' or 'max', threshold 'rel' or 'abs', cooldown,
    min_lr, eps)."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("The lr factor should be less than 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError("{} is not an Optimizer".format(type(optimizer).__name__))
        if mode not in ("min", "max"):
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.optimizer = optimizer
        self.min_lrs = [float(v) for v in _per_group("min_lr", min_lr, optimizer)]
        self.factor, self.patience, self.threshold = factor, patience, threshold
        self.threshold_mode, self.mode, self.cooldown, self.eps = threshold_mode, mode, cooldown, eps
        self.cooldown_counter, self.num_bad_epochs, self.last_epoch = 0, 0, 0
        self.best = math.inf if mode == "min" else -math.inf
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def _better(self, a, best):
        if self.mode == "min":
            return a < (best * (1.0 - self.threshold) if self.threshold_mode == "rel" else best - self.threshold)
        return a > (best * (1.0 + self.threshold) if self.threshold_mode == "rel" else best + self.threshold)

    def step(self, metrics):
        current = _value(metrics)
        self.last_epoch += 1
        if self._better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            for group, floor in zip(self.optimizer.param_groups, self.min_lrs):
                old = _value(group["lr"])
                new = max(old * self.factor, floor)
                if old - new > self.eps:
                    ops.assign(group["lr"], Tensor(new, mstype.float32))
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        return True

    def get_last_lr(self):
        return [lr.value() for lr in self._last_lr]


class ChainedScheduler:
    """Steps every scheduler in the list at once."""

    def __init__(self, schedulers):
        self._schedulers = list(schedulers)
        self.optimizer = self._schedulers[0].optimizer
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def step(self):
        for scheduler in self._schedulers:
            scheduler.step()
        return True

    def get_last_lr(self):
        return [lr.value() for lr in self._last_lr]


class SequentialLR:
    """Runs schedulers[i] between milestones[i - 1] and milestones[i]."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        if len(schedulers) < 1:
            raise ValueError("SequentialLR expects at least one scheduler, but got no scheduler.")
        for i, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise ValueError("SequentialLR expects all schedulers to belong to the same optimizer, but got "
                                 "schedulers at index {} to be different than the optimizer passed in.".format(i))
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             "number of milestone points, but got number of schedulers {} and the number of "
                             "milestones to be equal to {}".format(len(schedulers), len(milestones)))
        self._schedulers, self._milestones = list(schedulers), list(milestones)
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group, base in zip(optimizer.param_groups, schedulers[0].base_lrs):
            ops.assign(group["lr"], Tensor(float(base), mstype.float32))
        for scheduler in self._schedulers:
            ops.assign(scheduler.last_epoch, Tensor(float(scheduler._epoch - 1), mstype.float32))
        self._schedulers[0].step()
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def step(self):
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()
        return True

    def get_last_lr(self):
        return [lr.value() for lr in self._last_lr]

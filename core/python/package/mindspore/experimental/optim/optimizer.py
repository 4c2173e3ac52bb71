"""The base of mindspore.experimental.optim: parameter groups (a list of Parameters or of dicts
with 'params' and per-group options), each group's learning rate a float32 Parameter (so the
schedulers change it in place), and one state Parameter per parameter for the subclasses."""
from collections import defaultdict

import mindspore.nn as nn
from mindspore import Parameter, ParameterTuple, Tensor, log as logger, ops
from mindspore._optimizer_params import checked_parameters
from mindspore.common import dtype as mstype

__all__ = ["Optimizer"]


class Optimizer(nn.Cell):
    """Optimizer(params, defaults): subclasses implement construct(gradients), gradients in the
    order of `self.parameters` (the groups' parameters, group after group)."""

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        groups = self._checked_params(params)
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        self.group_start_id = [0]
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        params_so_far = []
        for i, group in enumerate(groups):
            self.add_param_group(i, group)
            params_so_far += self.param_groups[-1]["params"]
            self.group_start_id.append(self.group_start_id[-1] + len(self.param_groups[-1]["params"]))
        self.parameters = ParameterTuple(params_so_far)
        # What the debugger reads of an update (nn._run_python_update): the parameters, the
        # learning rate used (the first group's) and the count of updates.
        self._parameters = self.parameters
        self._reported_lr = None
        self.global_step = Tensor([0], mstype.int32)

    def __repr__(self):
        lines = [self.__class__.__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append("Parameter Group %d" % i)
            for key in sorted(group):
                if key == "params":
                    continue
                value = group[key]
                shown = float(value.asnumpy()) if key == "lr" and isinstance(value, Parameter) else value
                lines.append("    %s: %s" % (key, shown))
        return "\n".join(lines) + "\n)"

    @staticmethod
    def _checked_params(params):
        return checked_parameters(params, "params")

    def add_param_group(self, group_id, param_group):
        """Adds a group (a dict with 'params' and options; missing options take the defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError("Param group must be a dict.")
        params = param_group["params"]
        if isinstance(params, Parameter):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("Optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        params = list(params)
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError("Optimizer can only optimize Parameters, but one of the params is %s"
                                % type(p).__name__)
        if len(params) != len({id(p) for p in params}):
            logger.warning("Optimizer contains a parameter group with duplicate parameters.")
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group.")
        group = dict(param_group)
        group["params"] = params
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        group["lr"] = self._lr_parameter(group.get("lr"), "learning_rate_group_" + str(group_id))
        group["weight_decay"] = self._weight_decay(group.get("weight_decay", 0.0))
        self.param_groups.append(group)

    def _lr_parameter(self, lr, name):
        if isinstance(lr, Parameter):
            return lr
        if isinstance(lr, bool) or not isinstance(lr, (int, float, Tensor)):
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float or Tensor, but got %s."
                            % type(lr))
        if isinstance(lr, Tensor):
            if lr.ndim != 0:
                raise ValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should be scalar Tensor")
            value = lr.astype(mstype.float32)
        else:
            if lr < 0:
                raise ValueError("For '%s', the 'learning rate' must be non-negative, but got %s." % (self.cls_name, lr))
            value = Tensor(float(lr), mstype.float32)
        return Parameter(value, name=name, requires_grad=False)

    def _weight_decay(self, weight_decay):
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
            raise TypeError("For 'Optimizer', the argument 'Weight_decay' must be int or float.but got %s"
                            % type(weight_decay))
        if weight_decay < 0:
            raise ValueError("For '%s', the 'weight_decay' must be non-negative, but got %s." % (self.cls_name, weight_decay))
        return float(weight_decay)

    def _state(self, prefix, init=0.0):
        """One state Parameter per parameter, named prefix.<name> and held by the Cell (so a
        checkpoint of the optimizer carries it)."""
        state = []
        for p in self.parameters:
            param = Parameter(ops.fill(p.dtype, p.shape, init), name=prefix + "." + p.name, requires_grad=False)
            self.insert_param_to_cell((prefix + "." + p.name).replace(".", "_"), param)
            param.name = prefix + "." + p.name
            state.append(param)
        return ParameterTuple(state)

    def __call__(self, *args, **kwargs):
        # The step's update phase, as nn.Optimizer's: the debugger shows its ops as update nodes.
        return nn._run_python_update(self, *args, **kwargs)

    def _groups(self, gradients):
        """(group, its parameters, their gradients, its slice of the state) per group."""
        gradients = tuple(gradients)
        self.global_step = self.global_step + 1
        self._reported_lr = float(self.param_groups[0]["lr"].asnumpy())
        if len(gradients) != len(self.parameters):
            raise ValueError("For '%s', the number of gradients (%d) must equal the number of parameters (%d)."
                             % (self.cls_name, len(gradients), len(self.parameters)))
        for i, group in enumerate(self.param_groups):
            start, end = self.group_start_id[i], self.group_start_id[i + 1]
            grads = gradients[start:end]
            if group.get("maximize"):
                grads = tuple(-g for g in grads)
            yield group, self.parameters[start:end], grads, slice(start, end)

    def construct(self, *hyper_params):
        raise NotImplementedError

"""The Cell methods MindSpore 2.2 has for compile and device configuration (recompute,
set_jit_config / jit_config_dict, add_flags / add_flags_recursive / get_flags, set_boost,
set_comm_fusion, flatten_weights, update_cell_prefix / update_cell_type, init_parameters_data,
parameters_broadcast_dict) and cast_inputs. gradstep's results do not depend on these settings
(recomputation, fusion and boosting change memory and speed on devices, never values), so they
record what was asked, validate it with MindSpore's errors, and return what MindSpore returns."""
from collections import OrderedDict

import mindspore.nn as _nn
from mindspore import ops

Cell = _nn.Cell


def _flags(cell):
    return cell.__dict__.setdefault("_mindspore_flags", {})


def add_flags(self, **flags):
    _flags(self).update(flags)
    self.__dict__.update(flags)
    return self


def add_flags_recursive(self, **flags):
    for _, cell in self.cells_and_names():
        add_flags(cell, **flags)
    return self


def get_flags(self):
    return dict(_flags(self))


def recompute(self, **kwargs):
    """Marks this Cell and its sub-Cells for recomputation in the backward pass."""
    for name in kwargs:
        if name not in ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation"):
            raise ValueError("For 'recompute', keyword '%s' is not supported, only 'mp_comm_recompute', "
                             "'parallel_optimizer_comm_recompute' and 'recompute_slice_activation' are." % name)
        if not isinstance(kwargs[name], bool):
            raise TypeError("For 'recompute', the '%s' must be bool, but got %s." % (name, type(kwargs[name]).__name__))
    for _, cell in self.cells_and_names():
        cell.__dict__["_recompute"] = dict(kwargs) or True


def set_jit_config(self, jit_config):
    from mindspore.common.jit_config import JitConfig
    if not isinstance(jit_config, JitConfig):
        raise TypeError("For 'set_jit_config', the 'jit_config' must be a JitConfig, but got %s."
                        % type(jit_config).__name__)
    self.__dict__["_jit_config_dict"] = dict(jit_config.jit_config_dict)


def jit_config_dict(self):
    return dict(self.__dict__.get("_jit_config_dict", {}))


def set_boost(self, boost_type):
    if boost_type not in ("less_bn",):
        raise ValueError("For 'set_boost', the boost_type must be 'less_bn', but got %r." % (boost_type,))
    self.__dict__["boost_type"] = boost_type
    return self


def set_comm_fusion(self, fusion_type, recurse=True):
    if isinstance(fusion_type, bool) or not isinstance(fusion_type, int) or fusion_type < 0:
        raise TypeError("For 'set_comm_fusion', the 'fusion_type' must be a non-negative int, but got %r."
                        % (fusion_type,))
    for param in self.trainable_params(recurse):
        param.__dict__["comm_fusion"] = fusion_type
    return self


def flatten_weights(self, fusion_size=0):
    if isinstance(fusion_size, bool) or not isinstance(fusion_size, int) or fusion_size < 0:
        raise ValueError("For 'flatten_weights', the 'fusion_size' must be a non-negative int, but got %r."
                         % (fusion_size,))
    self.__dict__["_flattened_weights"] = fusion_size


def update_cell_prefix(self):
    for name, cell in self.cells_and_names():
        cell.__dict__["param_prefix"] = name


def update_cell_type(self, cell_type):
    self.__dict__["cell_type"] = cell_type


def init_parameters_data(self, auto_parallel_mode=False):
    """Parameters hold their data from construction on; nothing is replaced."""
    return {}


def parameters_broadcast_dict(self, recurse=True):
    out = OrderedDict()
    for param in self.get_parameters(expand=recurse):
        if not getattr(param, "layerwise_parallel", False):
            out[param.name] = param
    return out


def cast_inputs(self, inputs, dst_type):
    """inputs (a tuple) with every floating-point Tensor cast to dst_type."""
    from mindspore import Tensor
    from mindspore.common import dtype as mstype
    floats = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)
    return tuple(ops.cast(x, dst_type) if isinstance(x, Tensor) and x.dtype in floats else x for x in inputs)


for _name, _fn in (("add_flags", add_flags), ("add_flags_recursive", add_flags_recursive), ("get_flags", get_flags),
                   ("recompute", recompute), ("set_jit_config", set_jit_config), ("set_boost", set_boost),
                   ("set_comm_fusion", set_comm_fusion), ("flatten_weights", flatten_weights),
                   ("update_cell_prefix", update_cell_prefix), ("update_cell_type", update_cell_type),
                   ("init_parameters_data", init_parameters_data),
                   ("parameters_broadcast_dict", parameters_broadcast_dict), ("cast_inputs", cast_inputs)):
    if not hasattr(Cell, _name):
        setattr(Cell, _name, _fn)
if not hasattr(Cell, "jit_config_dict"):
    Cell.jit_config_dict = property(jit_config_dict)

"""The scatter primitives of mindspore.ops.operations that write into a Parameter: ScatterSub,
ScatterMul, ScatterDiv, ScatterMax, ScatterMin (rows of axis 0) and ScatterNdUpdate,
ScatterNdAdd, ScatterNdSub, ScatterNdMul, ScatterNdDiv, ScatterNdMax, ScatterNdMin (N-D
indices). Each checks `use_locking` as MindSpore does and calls the functional form of the same
meaning, which combines the updates one after another in index order (so repeated indices
accumulate as on MindSpore's CPU kernels) and writes a Parameter in place."""
import numpy as np

import mindspore.ops as ops
from mindspore.ops import _functional_array_more as _more
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register


def _scatter_class(name, fn_name, locking_default):
    @prim_attr_register
    def __init__(self, use_locking=locking_default):
        U.check_bool(name, "use_locking", use_locking)

    def __call__(self, input_x, indices, updates):
        fn = getattr(ops, fn_name) if isinstance(fn_name, str) else fn_name
        return fn(input_x, indices, updates)

    doc = "%s as a primitive (use_locking has no effect: gradstep runs one update at a time)." % name
    return primitive(type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc}))


def _scatter_sub(input_x, indices, updates):
    """input_x[indices] -= updates along axis 0; MindSpore 2.2 has no ops.scatter_sub, only the
    primitive."""
    idx = np.expand_dims(U.shape_deciding_values("ScatterSub", indices).astype(np.int64), -1)
    return _more._write_back("ScatterSub", input_x, _more._scatter_reduce("ScatterSub", input_x, idx, updates, "sub"))


ScatterSub = _scatter_class("ScatterSub", _scatter_sub, False)
ScatterMul = _scatter_class("ScatterMul", "scatter_mul", False)
ScatterDiv = _scatter_class("ScatterDiv", "scatter_div", False)
ScatterMax = _scatter_class("ScatterMax", "scatter_max", True)
ScatterMin = _scatter_class("ScatterMin", "scatter_min", False)
ScatterNdUpdate = _scatter_class("ScatterNdUpdate", "scatter_nd_update", True)
ScatterNdAdd = _scatter_class("ScatterNdAdd", "scatter_nd_add", False)
ScatterNdSub = _scatter_class("ScatterNdSub", "scatter_nd_sub", False)
ScatterNdMul = _scatter_class("ScatterNdMul", "scatter_nd_mul", False)
ScatterNdDiv = _scatter_class("ScatterNdDiv", "scatter_nd_div", False)
ScatterNdMax = _scatter_class("ScatterNdMax", "scatter_nd_max", False)
ScatterNdMin = _scatter_class("ScatterNdMin", "scatter_nd_min", False)

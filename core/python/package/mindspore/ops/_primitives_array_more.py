"""Primitive classes over mindspore.ops' array functions: BatchToSpaceND / SpaceToBatchND (the
block attributes held by the primitive) and the cumulative extremes Cummax (P) and Cummin
(mindspore.ops.operations._inner_ops, where MindSpore keeps it), each returning (values, indices)."""
import importlib

import mindspore.ops as ops
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register


@primitive
class BatchToSpaceND(Primitive):
    @prim_attr_register
    def __init__(self, block_shape, crops):
        pass

    def __call__(self, input_x):
        return ops.batch_to_space_nd(input_x, self.block_shape, self.crops)


@primitive
class SpaceToBatchND(Primitive):
    @prim_attr_register
    def __init__(self, block_shape, paddings):
        pass

    def __call__(self, input_x):
        return ops.space_to_batch_nd(input_x, self.block_shape, self.paddings)


@primitive
class Cummax(Primitive):
    @prim_attr_register
    def __init__(self, axis):
        U.check_int("Cummax", "axis", axis)

    def __call__(self, input):
        return ops.cummax(input, self.axis)


class Cummin(Primitive):
    @prim_attr_register
    def __init__(self, axis):
        U.check_int("Cummin", "axis", axis)

    def __call__(self, input_x):
        return ops.cummin(input_x, self.axis)


setattr(importlib.import_module("mindspore.ops.operations._inner_ops"), "Cummin", Cummin)

"""mindspore.ops.op_info_register: CustomRegOp, DataType and custom_info_register (defined in
mindspore.ops._custom)."""
from mindspore.ops._custom import CustomRegOp, DataType, custom_info_register

__all__ = ["CustomRegOp", "DataType", "custom_info_register"]

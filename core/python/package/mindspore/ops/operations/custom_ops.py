"""mindspore.ops.operations.custom_ops: Custom (defined in mindspore.ops._custom)."""
from mindspore.ops._custom import Custom

__all__ = ["Custom"]

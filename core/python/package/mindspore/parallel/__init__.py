"""mindspore.parallel: the settings of data-parallel training (set_auto_parallel_context and its
helpers live in _auto_parallel_context and _utils)."""
from mindspore.parallel._auto_parallel_context import ParallelMode  # noqa: F401

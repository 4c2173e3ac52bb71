"""mindspore.profiler: Profiler (also mindspore.Profiler, as MindSpore 2.2 exports it), MindSpore's
CPU profiler over the core's op timing (profiling.py)."""
import mindspore as _ms
from mindspore.profiler.profiling import Profiler

__all__ = ["Profiler"]

_ms.Profiler = Profiler

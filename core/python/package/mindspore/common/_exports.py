"""Names mindspore.common re-exports from its submodules (the C++ module holds Tensor,
Parameter, dtype and initializer)."""
import mindspore
import mindspore.common as _common
from mindspore.common import dtype as _dtype
from mindspore.common.api import jit, jit_class, ms_class, ms_function
from mindspore.common.seed import get_seed, set_seed

for _name in ("jit", "jit_class", "ms_class", "ms_function", "set_seed", "get_seed"):
    setattr(_common, _name, globals()[_name])
for _name in dir(_dtype):
    if not _name.startswith("_") and isinstance(getattr(_dtype, _name), _dtype.Type):
        setattr(_common, _name, getattr(_dtype, _name))
mindspore.jit_class = jit_class
mindspore.ms_class = ms_class

# mindspore.from_numpy(array): Tensor.from_numpy (common/_tensor_methods.py installs it first).
import mindspore.common._tensor_methods  # noqa: E402,F401

if not hasattr(mindspore, "from_numpy"):
    mindspore.from_numpy = mindspore.Tensor.from_numpy

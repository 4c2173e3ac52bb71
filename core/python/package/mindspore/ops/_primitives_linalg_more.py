"""Linear algebra primitive classes of mindspore.ops.operations over the functional forms: Svd,
Qr and Geqrf (NumPy/LAPACK, as the functions are)."""
import mindspore.ops as ops
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register


@primitive
class Svd(Primitive):
    """(s, u, v) of the input, as ops.svd; with compute_uv=False, u and v are empty placeholders
    of the input's dtype (MindSpore's ops.svd discards them too)."""

    @prim_attr_register
    def __init__(self, full_matrices=False, compute_uv=True):
        U.check_bool("Svd", "full_matrices", full_matrices)
        U.check_bool("Svd", "compute_uv", compute_uv)

    def __call__(self, a):
        if self.compute_uv:
            return ops.svd(a, self.full_matrices, True)
        s = ops.svd(a, self.full_matrices, False)
        empty = ops.zeros((0,), a.dtype)
        return s, empty, empty


@primitive
class Qr(Primitive):
    """(Q, R) of the input: full-sized with full_matrices=True, reduced otherwise."""

    @prim_attr_register
    def __init__(self, full_matrices=False):
        U.check_bool("Qr", "full_matrices", full_matrices)

    def __call__(self, x):
        return ops.qr(x, "complete" if self.full_matrices else "reduced")


@primitive
class Geqrf(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x):
        return ops.geqrf(x)

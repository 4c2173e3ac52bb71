"""The Parameter-writing scatter primitives of mindspore.ops.operations (ScatterSub / Mul / Div /
Max / Min, ScatterNdUpdate / Add / Sub / Mul / Div / Max / Min): values against NumPy with
repeated indices applied one after another, the Parameter written in place, use_locking's
default and type check, RuntimeError for an index outside the input (ScatterNdUpdate's in
MindSpore's words, its detail logged), and ScatterAdd's
accumulation order (float32 sums round as MindSpore's sequential kernel does)."""
import numpy as np

from mindspore import Parameter, Tensor
from mindspore.ops import operations as P

from _check import close, raises

base = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
upd = np.array([[2.0, 2.0], [10.0, 0.5], [4.0, 4.0]], np.float32)
idx = np.array([0, 2, 0])
combine = {"ScatterSub": np.subtract, "ScatterMul": np.multiply, "ScatterDiv": np.divide,
           "ScatterMax": np.maximum, "ScatterMin": np.minimum}
for name, f in combine.items():
    want = base.copy()
    for i, j in enumerate(idx):
        want[j] = f(want[j], upd[i])
    p = Parameter(Tensor(base.copy()), name="p")
    out = getattr(P, name)()(p, Tensor(idx), Tensor(upd))
    close(out, want)
    close(p, want)  # written in place
assert P.ScatterMax().use_locking is True and P.ScatterSub().use_locking is False
raises(TypeError, P.ScatterMul, use_locking=1, match="For 'ScatterMul', the 'use_locking' must be a bool")

flat = np.arange(8.0, dtype=np.float32)
nd = np.array([[4], [3], [1], [7]])
vals = np.array([9.0, 10.0, 11.0, 12.0], np.float32)
q = Parameter(Tensor(flat.copy()), name="q")
want = flat.copy()
want[[4, 3, 1, 7]] = vals
close(P.ScatterNdUpdate()(q, Tensor(nd), Tensor(vals)), want)
close(q, want)
assert P.ScatterNdUpdate().use_locking is True and P.ScatterNdAdd().use_locking is False
grid = np.zeros((4, 4, 4), np.float32)
slab = np.arange(32, dtype=np.float32).reshape(2, 4, 4)
r = Parameter(Tensor(grid.copy()), name="r")
want = grid.copy()
want[[0, 2]] = slab
close(P.ScatterNdUpdate()(r, Tensor(np.array([[0], [2]])), Tensor(slab)), want)
nd2 = np.array([[0, 1], [2, 0], [0, 1]])
for name, f in (("ScatterNdAdd", np.add), ("ScatterNdSub", np.subtract), ("ScatterNdMul", np.multiply),
                ("ScatterNdDiv", np.divide), ("ScatterNdMax", np.maximum), ("ScatterNdMin", np.minimum)):
    want = base.copy()
    u = np.array([1.5, -2.0, 3.0], np.float32)
    for i, (a, b) in enumerate(nd2):
        want[a, b] = f(want[a, b], u[i])
    s = Parameter(Tensor(base.copy()), name="s")
    close(getattr(P, name)()(s, Tensor(nd2), Tensor(u)), want)
    close(s, want)
# an index outside the input is found by the kernel: a RuntimeError, as in MindSpore
t = Parameter(Tensor(np.ones((1, 4, 1), np.float32)), name="t")
# (ScatterNdUpdate's kernel logs the detail and raises "Some errors occurred! ...", as MindSpore's)
raises(RuntimeError, P.ScatterNdUpdate(), t, Tensor(np.array([[0, 2], [3, 2]])), Tensor(np.ones((2, 1), np.float32)),
       match="Some errors occurred! The error message is as above")
raises(RuntimeError, P.ScatterNdAdd(), t, Tensor(np.array([[0, 4]])), Tensor(np.ones((1, 1), np.float32)),
       match="For 'ScatterNdAdd', the indices must be in [0, 4) along dimension 1")

# ScatterAdd adds the updates to the input one at a time (not their sum at once)
x = np.array([[0.214141, 0.415151, 0.51516], [0.876542, 0.451611, 0.55112],
              [0.111244, 0.633333, 0.34444]], np.float32)
rows = np.array([1, 0, 2, 2, 2, 0, 1, 0, 1, 2, 1, 2])
u = np.arange(34, 70, dtype=np.float32).reshape(12, 3)
want = x.copy()
for i, j in enumerate(rows):
    want[j] = want[j] + u[i]
out = P.ScatterAdd()(Parameter(Tensor(x.copy()), name="x"), Tensor(rows), Tensor(u)).asnumpy()
assert np.array_equal(out, want), (out, want)

# An index past int64 is MindSpore's IndexError, never pybind11's cast text; a slice bound past it
# is clamped, as in NumPy.
# expect-exit: 0
# expect-output: ^huge index ok$
import numpy as np
from mindspore import Tensor

t = Tensor(np.arange(3, dtype=np.float32))
try:
    t[10**20]
except IndexError as e:
    assert "out of bounds" in str(e) and "pybind11" not in str(e) and "cast" not in str(e), e
else:
    raise AssertionError("no IndexError")
assert np.array_equal(t[0:10**20].asnumpy(), [0, 1, 2])
assert np.array_equal(t[-10**20:2].asnumpy(), [0, 1])
print("huge index ok")

# A __repr__ that calls itself, reached through print of a Tensor and the object: RecursionError at
# the recursive line, the repeated frame folded, no crash.
# expect-exit: 1
# expect-output: repr_recursion\.py:13:16: error: RecursionError: maximum recursion depth exceeded
# expect-output: the frame above repeats [0-9]+ more times
# max-seconds: 60
import numpy as np
import mindspore as ms


class Loop:
    def __repr__(self):
        return repr(self) + repr(self)


print(ms.Tensor(np.ones(2, np.float32)), Loop())

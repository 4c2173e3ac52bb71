# A script that profiles itself with sys.setprofile and cProfile: both run, and so does gradstep.
# expect-exit: 0
# expect-output: profiled calls: [1-9]
# expect-output: function calls
# max-seconds: 60
import cProfile
import sys
import numpy as np
import mindspore as ms
from mindspore import Tensor

calls = []


def profiler(frame, event, arg):
    if event == "call":
        calls.append(frame.f_code.co_name)


def work(x):
    return (x * x).sum()


sys.setprofile(profiler)
ms.grad(work)(Tensor(np.ones(3, np.float32)))
sys.setprofile(None)
print("profiled calls:", calls.count("work"))
cProfile.run("ms.grad(work)(Tensor(np.ones(3, np.float32)))")

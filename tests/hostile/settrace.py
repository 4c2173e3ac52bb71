# A script that traces itself: its trace function runs, and so does gradstep (the run ends).
# expect-exit: 0
# expect-output: traced lines: [1-9]
# max-seconds: 60
import sys
import numpy as np
import mindspore as ms
from mindspore import Tensor

lines = []


def tracer(frame, event, arg):
    if event == "line" and frame.f_code.co_name == "work":
        lines.append(frame.f_lineno)
    return tracer


def work(x):
    y = x * 2
    return (y * y).sum()


sys.settrace(tracer)
g = ms.grad(work)(Tensor(np.ones(3, np.float32)))
sys.settrace(None)
assert np.allclose(g.asnumpy(), 8.0), g
print("traced lines:", len(lines))

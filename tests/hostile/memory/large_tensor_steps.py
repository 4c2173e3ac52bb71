# Training steps over large tensors (tests/hostile/memory/recording_cap.sh): each step runs about
# 72 nodes (36 forward, 36 backward) on SIDE x SIDE float32 tensors and one SGD update, and the
# script prints its process's peak resident memory from /proc at the end. Under `gradstep run` that
# is the script's own footprint; under `gradstep debug` the recording comes on top of it.
# usage: large_tensor_steps.py [STEPS [SIDE]]; with PEAK_FILE in the environment, the peak is also
# written there after every step (the window ends its run before the script's last line).
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

steps = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("STEPS", 50))
side = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("SIDE", 1024))

w = Parameter(Tensor(np.full((side, side), 0.5, np.float32)), name="w")
x = Tensor(np.ones((side, side), np.float32))


def forward(inputs):
    y = inputs * w
    for _ in range(17):
        y = y * 0.9 + 0.1
    return y.mean()


grad_fn = ms.value_and_grad(forward, None, [w])
optimizer = nn.SGD([w], learning_rate=0.01)


def status_kib(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(key + " not in /proc/self/status")


for step in range(steps):
    loss, grads = grad_fn(x)
    optimizer(grads)
    if step % 5 == 0:
        print(f"step {step} VmRSS {status_kib('VmRSS')} kB", flush=True)
    if os.environ.get("PEAK_FILE"):
        with open(os.environ["PEAK_FILE"], "w") as f:
            f.write(f"{step} {status_kib('VmHWM')}\n")
print(f"loss {float(loss):.6f}")
print(f"VmHWM {status_kib('VmHWM')} kB")

# The debugger is never the reason a script runs out of memory: the script limits its address space
# to 640 MiB above its size before the loop (headless the loop needs 384 MiB more; with the
# recording's snapshots, 248 MiB a step under the default 1 GiB cap, it needed 784), and its steps
# on 4 MiB tensors still finish under the debugger with the loss they have headless: the recording
# drops its snapshots when an allocation fails, the script's or its own.
# command: debug
# expect-exit: 0
# expect-output: ^loss 0\.897054$
# expect-output: finished after 6 training steps
# max-seconds: 120
import resource

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn


def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


side = 1024  # 4 MiB of float32
w = Parameter(Tensor(np.full((side, side), 0.5, np.float32)), name="w")
x = Tensor(np.ones((side, side), np.float32))


def forward(inputs):
    y = inputs * w
    for _ in range(15):
        y = y * 0.9 + 0.1
    return y.mean()


grad_fn = ms.value_and_grad(forward, None, [w])
optimizer = nn.SGD([w], learning_rate=0.01)
resource.setrlimit(resource.RLIMIT_AS, (vm_size() + (640 << 20), resource.RLIM_INFINITY))
for step in range(6):
    loss, grads = grad_fn(x)
    optimizer(grads)
print(f"loss {float(loss):.6f}")

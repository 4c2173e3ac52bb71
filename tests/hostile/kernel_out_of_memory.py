# A kernel's work buffer that does not fit is a MemoryError naming the op and its operands, never
# pybind11's bare "std::bad_alloc": the script limits its address space so that ReduceMean's input
# and output fit and the kernel's double-precision sums do not.
# expect-exit: 1
# expect-output: MemoryError: for 'ReduceMean', cannot allocate the memory its kernel needs besides the [0-9]+ bytes of its outputs
# expect-output: inputs \[[0-9]+, 2\] Float32
# max-seconds: 60
import resource

import mindspore as ms
from mindspore import ops


def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


available = 1 << 30
resource.setrlimit(resource.RLIMIT_AS, (vm_size() + available, resource.RLIM_INFINITY))
n = available // 16
x = ops.ones((n, 2), ms.float32)  # half of what is left
y = x.mean(axis=1)                # its output a quarter, the kernel's sums another half
print(y.shape)

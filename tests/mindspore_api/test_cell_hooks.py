"""Cell hooks (register_forward_pre_hook, register_forward_hook, register_backward_hook): they run
around every call of the Cell, also when a core container calls it, and handle.remove() takes them
off (Note [Cell backward hooks], core/nn/cell_hooks.cpp)."""
import numpy as np

from mindspore import Tensor, nn, ops

from _check import close, raises

x = Tensor(np.array([1.0, 2.0], np.float32))
y = Tensor(np.array([3.0, 4.0], np.float32))


class Mul(nn.Cell):
    def construct(self, a, b):
        return a * b


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mul = Mul()

    def construct(self, a, b):
        return self.mul(a, b) * 2


grad_all = ops.GradOperation(get_all=True)
net = Net()
close(grad_all(net)(x, y)[0], [6.0, 8.0])

# Backward hook: sees d out (grad_input) and d inputs (grad_output), may replace the latter.
seen = []


def backward_hook(cell_id, grad_input, grad_output):
    seen.append((cell_id, [g.asnumpy().tolist() for g in grad_input], [g.asnumpy().tolist() for g in grad_output]))
    return Tensor(np.ones(2, np.float32)), Tensor(np.full(2, 5.0, np.float32))


handle = net.mul.register_backward_hook(backward_hook)
dx, dy = grad_all(net)(x, y)
close(dx, [1.0, 1.0])   # the hook's result is the gradient of the Cell's inputs, x and y here
close(dy, [5.0, 5.0])
assert seen[0][0].startswith("Mul(") and seen[0][1] == [[2.0, 2.0]] and seen[0][2] == [[6.0, 8.0], [2.0, 4.0]], seen
handle.remove()
handle.remove()  # a second remove does nothing
close(grad_all(net)(x, y)[0], [6.0, 8.0])
assert len(seen) == 1

# Two hooks: the second gets what the first returned.
net.mul.register_backward_hook(lambda cid, gi, go: (go[0] * 10, go[1]))
net.mul.register_backward_hook(lambda cid, gi, go: (go[0] + 1, go[1]))
close(grad_all(net)(x, y)[0], [61.0, 81.0])

# Forward pre-hook and forward hook change inputs and output, and gradients follow them.
net2 = Net()
h1 = net2.mul.register_forward_pre_hook(lambda cid, inputs: (inputs[0] * inputs[0], inputs[1]))
h2 = net2.mul.register_forward_hook(lambda cid, inputs, out: out + 1)
close(net2(x, y), (np.array([1.0, 4.0]) * [3.0, 4.0] + 1) * 2)
close(grad_all(net2)(x, y)[0], 2 * 2 * np.array([1.0, 2.0]) * [3.0, 4.0])   # d/da 2(a^2 b + 1)
h1.remove()
h2.remove()
close(net2(x, y), [6.0, 16.0])

# A core layer inside a core container runs its hooks too.
relu = nn.ReLU()
calls = []
relu.register_forward_hook(lambda cid, inputs, out: calls.append(cid))
seq = nn.SequentialCell([nn.Dense(2, 2, weight_init="ones"), relu])
seq(Tensor(np.ones((1, 2), np.float32)))
assert len(calls) == 1 and calls[0].startswith("ReLU(")

raises(TypeError, relu.register_forward_hook, 3, match="the type of 'hook_fn' must be python function")
bad = Net()
bad.mul.register_backward_hook(lambda cid, gi, go: (go[0],))
raises(RuntimeError, grad_all(bad), x, y, match="must return 2 gradient(s)")

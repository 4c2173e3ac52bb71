"""Cell hooks are PyNative only, as in MindSpore 2.2 (core/nn/cell_hooks_suspension.h): in graph
mode register_*_hook registers nothing (a warning; the handle's remove() does nothing), a
graph-mode call ignores hooks registered in PyNative, and so does the body of a @jit construct
(also while a gradient records it). Hook functions must be Python functions, not @jit ones."""
import numpy as np

from mindspore import Tensor, context, jit, nn, ops

from _check import close, raises

x = Tensor(np.array([1.0, -2.0, 3.0], np.float32))
grad = ops.GradOperation()


def double_out(cell_id, inputs, output):
    return output * 2


def add_one_in(cell_id, inputs):
    return inputs[0] + 1


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, a):
        return self.relu(a) * 3


# PyNative: both hooks run. relu(x + 1) * 2 * 3.
net = Net()
net.relu.register_forward_pre_hook(add_one_in)
net.relu.register_forward_hook(double_out)
close(net(x), [12.0, 0.0, 24.0])
close(grad(net)(x), [6.0, 0.0, 6.0])

# Graph mode: the same Cell runs without them, values and gradients alike.
context.set_context(mode=context.GRAPH_MODE)
close(net(x), [3.0, 0.0, 9.0])
close(grad(net)(x), [3.0, 0.0, 3.0])

# Registered in graph mode: nothing is registered, even back in PyNative.
fresh = Net()
handle = fresh.relu.register_forward_hook(double_out)
handle.remove()
context.set_context(mode=context.PYNATIVE_MODE)
fresh.relu.register_forward_pre_hook(add_one_in)
close(fresh(x), [6.0, 0.0, 12.0])   # only the PyNative pre-hook: relu(x + 1) * 3


class JitOuter(nn.Cell):
    """A @jit construct: the hooks of the Cells inside it do not run; its own hooks do."""

    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()
        self.relu.register_forward_hook(double_out)

    @jit
    def construct(self, a):
        return self.relu(a) * 3


outer = JitOuter()
outer.register_forward_hook(double_out)
close(outer(x), [6.0, 0.0, 18.0])           # relu(x) * 3 * 2: the inner hook is ignored
close(grad(outer)(x), [6.0, 0.0, 6.0])      # also while the gradient records the @jit body


@jit
def jit_hook(cell_id, inputs, output):
    return output


relu = nn.ReLU()
raises(TypeError, relu.register_forward_hook, jit_hook,
       match="Decorating hook function jit_hook with '@jit' is not supported.")
raises(TypeError, relu.register_forward_pre_hook, "hook",
       match="When using 'register_forward_pre_hook(hook_fn)', the type of 'hook_fn' must be python function, "
             "but got <class 'str'>.")

"""ops.vjp in compiled code runs the function's forward once: pulling back three cotangents moves
BatchNorm's running statistics once, as MindSpore's compiler merges the forwards
(test_vjp_multiple_outputs_merge_forward). PyNative runs the forward again for every vjp_fn call,
as MindSpore's PyNative does; the gradients are the same in both modes
(Note [Gradients inside compiled code], jit_gradient.cpp)."""
import numpy as np

from mindspore import Parameter, Tensor, context, nn, ops

from _check import close


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(np.array([1.0, 2.0], np.float32)))
        self.bias = Parameter(Tensor(np.array([0.5, -0.5], np.float32)))
        self.mean = Parameter(Tensor(np.zeros([2], np.float32)))
        self.variance = Parameter(Tensor(np.ones([2], np.float32)))
        self.batch_norm = ops.BatchNorm(is_training=True, momentum=0.1)

    def construct(self, x):
        y = self.batch_norm(x, self.scale, self.bias, self.mean, self.variance)[0]
        return y, ops.relu(y), y * y


class Pullbacks(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x):
        outputs, vjp_fn = ops.vjp(self.net, x)
        g1 = vjp_fn((ops.ones_like(outputs[0]), ops.zeros_like(outputs[1]), ops.zeros_like(outputs[2])))
        g2 = vjp_fn((ops.zeros_like(outputs[0]), ops.ones_like(outputs[1]), ops.zeros_like(outputs[2])))
        g3 = vjp_fn((ops.zeros_like(outputs[0]), ops.zeros_like(outputs[1]), ops.ones_like(outputs[2])))
        return g1[0], g2[0], g3[0]


x_np = np.array([[0.0, 1.0], [2.0, 5.0], [-1.0, 3.0]], np.float32)
batch_mean = x_np.mean(axis=0)


def moving_mean_after(updates):
    mean = np.zeros(2, np.float32)
    for _ in range(updates):
        mean = 0.9 * mean + 0.1 * batch_mean  # ops.BatchNorm: (1 - momentum) * old + momentum * batch
    return mean


grads = {}
for mode, forwards in ((context.GRAPH_MODE, 1), (context.PYNATIVE_MODE, 4)):
    context.set_context(mode=mode)
    net = Net()
    grads[mode] = [g.asnumpy() for g in Pullbacks(net)(Tensor(x_np))]
    close(net.mean, moving_mean_after(forwards), rtol=1e-5)

for g_graph, g_pynative in zip(grads[context.GRAPH_MODE], grads[context.PYNATIVE_MODE]):
    close(g_graph, g_pynative, rtol=1e-5, atol=1e-6)
# relu's pullback is not BatchNorm's own (which sums to zero per channel): the values are real.
assert np.abs(grads[context.GRAPH_MODE][1]).max() > 1e-3
print("ok")

// Gradients of mindspore.nn Cells from Python: a Python Cell's bprop is what grad and
// GradOperation return, weight gradients of Cells match closed forms, and the MindSpore 2.x
// training loop (value_and_grad over a loss Cell, then optimizer(grads)) updates the weights.
// SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

const std::string kPrelude = "import mindspore as ms\n"
                             "import numpy as np\n"
                             "from mindspore import nn, ops, Tensor, Parameter\n";

void checkPython(const std::string& body)
{
    checkRuns(kPrelude + body);
}

} // namespace

TEST_CASE("a Python Cell's bprop result is what grad and GradOperation return")
{
    checkPython(R"PY(
class Custom(nn.Cell):
    def construct(self, x, y):
        return x * y * y
    def bprop(self, x, y, out, dout):
        return x + y, x * y   # SEMANTICS.md §5.1: used verbatim
x, y = Tensor(np.array([1.0], np.float32)), Tensor(np.array([2.0], np.float32))
gx, gy = ops.GradOperation(get_all=True)(Custom())(x, y)
assert gx.asnumpy().tolist() == [3.0] and gy.asnumpy().tolist() == [2.0], (gx, gy)
gx, gy = ms.grad(Custom(), grad_position=(0, 1))(x, y)
assert gx.asnumpy().tolist() == [3.0] and gy.asnumpy().tolist() == [2.0]

class MatMulCell(nn.Cell):
    def construct(self, x, y):
        return ops.matmul(x, y)
    def bprop(self, x, y, out, dout):
        return x + 1, y + 1
a = np.array([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], np.float32)
b = np.array([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], np.float32)
ga, gb = ops.GradOperation(get_all=True)(MatMulCell())(Tensor(a), Tensor(b))
assert np.allclose(ga.asnumpy(), a + 1) and np.allclose(gb.asnumpy(), b + 1)

class Outer(nn.Cell):  # the bprop Cell inside a Python Cell without one
    def __init__(self):
        super().__init__()
        self.custom = Custom()
    def construct(self, x, y):
        return self.custom(x, y) * 2
gx = ms.grad(Outer())(x, y)
assert gx.asnumpy().tolist() == [3.0], gx   # dout (2) is ignored by the bprop
)PY");
}

TEST_CASE("weight gradients of Python Cells match the closed forms and drive an optimizer")
{
    checkPython(R"PY(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')
    def construct(self, x):
        return self.fc(x)
net = Net()
x = np.arange(12, dtype=np.float32).reshape(4, 3)
dw, db = ms.grad(net, None, net.trainable_params())(Tensor(x))
assert np.allclose(dw.asnumpy(), np.ones((2, 1)) * x.sum(axis=0)) and np.allclose(db.asnumpy(), [4.0, 4.0])

loss_net = nn.WithLossCell(net, nn.MSELoss())
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.01)
grad_fn = ms.value_and_grad(loss_net, None, optimizer.parameters)
target = Tensor(np.zeros((4, 2), np.float32))
w0 = net.fc.weight.asnumpy().copy()
loss, grads = grad_fn(Tensor(x), target)
assert optimizer(grads)
assert np.allclose(net.fc.weight.asnumpy(), w0 - 0.01 * grads[0].asnumpy())
losses = [float(grad_fn(Tensor(x), target)[0].asnumpy())]
for _ in range(5):
    loss, grads = grad_fn(Tensor(x), target)
    optimizer(grads)
    losses.append(float(loss.asnumpy()))
assert losses[-1] < losses[0], losses
)PY");
}

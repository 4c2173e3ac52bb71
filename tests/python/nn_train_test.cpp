// mindspore.common.initializer, the losses, the optimizers and the training wrappers from Python:
// seeded determinism and statistics of the initializers, closed-form optimizer updates, and core
// wrappers (WithLossCell, TrainOneStepCell) driving Cells written in Python, bprop included.
// SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

const std::string kPrelude = "import mindspore as ms\n"
                             "import numpy as np\n"
                             "from mindspore import nn, Tensor, Parameter, ParameterTuple\n"
                             "from mindspore.common import initializer as init\n"
                             "from mindspore.common.initializer import initializer\n";

void checkPython(const std::string& body)
{
    checkRuns(kPrelude + body);
}

} // namespace

TEST_CASE("initializers give bit-identical tensors for one seed and different ones for another")
{
    checkPython(R"PY(
def draw(seed, make):
    ms.set_seed(seed)
    return make()
for make in [lambda: initializer(init.Normal(0.5), (64, 32)),
             lambda: initializer('truncatedNormal', (64, 32)),
             lambda: initializer(init.HeUniform(), (16, 8, 3, 3)),
             lambda: initializer('xavier_uniform', [64, 32], ms.float64),
             lambda: nn.Dense(20, 10).weight.value(),
             lambda: nn.Conv2d(3, 4, 3).weight.value()]:
    a, b, c = draw(7, make).asnumpy(), draw(7, make).asnumpy(), draw(8, make).asnumpy()
    assert a.tobytes() == b.tobytes() and a.tobytes() != c.tobytes()
ms.set_seed(3)
first = [p.asnumpy() for p in nn.Dense(4, 5).trainable_params()]
ms.set_seed(3)
second = [p.asnumpy() for p in nn.Dense(4, 5).trainable_params()]
assert all(x.tobytes() == y.tobytes() for x, y in zip(first, second))
)PY");
}

TEST_CASE("initializers have their distributions' statistics and bounds")
{
    checkPython(R"PY(
ms.set_seed(0)
n = initializer(init.Normal(sigma=0.5, mean=1.0), (500, 400), ms.float64).asnumpy()
assert n.dtype == np.float64 and abs(n.mean() - 1.0) < 0.005 and abs(n.std() - 0.5) < 0.005
d = initializer('normal', (500, 400)).asnumpy()  # the alias means Normal(0.01)
assert d.dtype == np.float32 and abs(d.std() - 0.01) < 1e-4
# MindSpore 2.2 cuts TruncatedNormal at the absolute bounds -2 and 2 (100 sigma here), not at two
# sigma: the draws are N(0, 0.02^2), 4.55 % of them beyond two sigma.
t = initializer(init.TruncatedNormal(0.02), (500, 400)).asnumpy()
assert np.abs(t).max() <= 2 and abs(t.std() - 0.02) < 2e-4 and abs((np.abs(t) > 0.04).mean() - 0.0455) < 0.003
fan_in = 8 * 3 * 3
h = initializer(init.HeUniform(), (16, 8, 3, 3)).asnumpy()
bound = np.sqrt(2.0) * np.sqrt(3.0 / fan_in)
assert np.abs(h).max() <= bound and np.abs(h).max() > 0.95 * bound
hn = initializer(init.HeNormal(mode='fan_out', nonlinearity='relu'), (400, 500)).asnumpy()
assert abs(hn.std() - np.sqrt(2.0 / 400)) < 0.002
x = initializer(init.XavierUniform(gain=2), (300, 200)).asnumpy()
xb = 2 * np.sqrt(6.0 / 500)
assert np.abs(x).max() <= xb and abs(x.std() - xb / np.sqrt(3)) < 0.003
u = initializer(init.Uniform(), (500, 400)).asnumpy()
assert np.abs(u).max() <= 0.07 and abs(u.mean()) < 0.001
assert (initializer('zeros', (2, 3)).asnumpy() == 0).all() and (initializer(init.One(), 4).asnumpy() == 1).all()
assert (initializer(init.Constant(2.5), [2]).asnumpy() == 2.5).all() and (initializer(7, [2]).asnumpy() == 7).all()
assert initializer('ones', (2,), ms.int32).asnumpy().tolist() == [1, 1]
src = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
assert (initializer(src, (2, 3)).asnumpy() == src.asnumpy()).all() and initializer(src).shape == (2, 3)
for alias in ['TruncatedNormal', 'HeUniform', 'he_normal', 'XavierUniform', 'Zero', 'ONES']:
    assert initializer(alias, (4, 4)).shape == (4, 4), alias
dense = nn.Dense(3, 2, weight_init='ones', bias_init=init.Constant(0.5))
assert (dense.weight.asnumpy() == 1).all() and (dense.bias.asnumpy() == 0.5).all()
dense = nn.Dense(3, 2, weight_init=Tensor(np.full((2, 3), 3.0, np.float32)), bias_init=0)
assert (dense.weight.asnumpy() == 3).all() and (dense.bias.asnumpy() == 0).all()
assert repr(init.Normal()) == "Normal()" and isinstance(init.Zero(), init.Initializer)
for bad, error in [(lambda: initializer('nonsense', (2,)), ValueError),
                   (lambda: initializer([1], (2,)), TypeError),
                   (lambda: init.HeUniform(mode='fan_avg'), ValueError),
                   (lambda: initializer('zeros', (2, 3, -1)), ValueError),
                   (lambda: initializer(init.HeUniform(), (5,)), ValueError)]:
    try:
        bad()
    except error:
        pass
    else:
        raise AssertionError("no %s" % error.__name__)
)PY");
}

TEST_CASE("losses follow MindSpore's defaults and closed forms")
{
    checkPython(R"PY(
ce = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
assert not nn.SoftmaxCrossEntropyWithLogits().sparse and ce.reduction == "none"
logits = Tensor(np.array([[3, 5, 6, 9, 12, 33, 42, 12, 32, 72]], np.float32))
loss = ce(logits, Tensor(np.array([1], np.int32)))
assert loss.shape == (1,) and abs(loss.asnumpy()[0] - 67.0) < 1e-4
a, b = np.array([1.0, 2.0, 4.0], np.float32), np.array([0.0, 2.0, 1.0], np.float32)
assert abs(nn.MSELoss()(Tensor(a), Tensor(b)).asnumpy() - ((a - b) ** 2).mean()) < 1e-6
assert nn.L1Loss(reduction='sum')(Tensor(a), Tensor(b)).asnumpy() == 4.0
assert nn.L1Loss(reduction='none')(Tensor(a), Tensor(b)).shape == (3,)
z = nn.BCEWithLogitsLoss()(Tensor(np.zeros(4, np.float32)), Tensor(np.ones(4, np.float32)))
assert abs(z.asnumpy() - np.log(2.0)) < 1e-6
# weight scales each element's loss (log 2 at logits 0), pos_weight the positive term
w = nn.BCEWithLogitsLoss(weight=Tensor(np.array([2.0, 1.0, 1.0, 1.0], np.float32)), reduction='sum')
assert abs(w(Tensor(np.zeros(4, np.float32)), Tensor(np.ones(4, np.float32))).asnumpy() - 5 * np.log(2.0)) < 1e-5
)PY");
}

TEST_CASE("optimizers called with gradients update the parameters in place by their closed forms")
{
    checkPython(R"PY(
w = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="w")
b = Parameter(Tensor(np.array([0.5], np.float32)), name="b")
g = (Tensor(np.array([0.5, 1.0], np.float32)), Tensor(np.array([-1.0], np.float32)))
sgd = nn.SGD([w, b], learning_rate=0.1)
assert sgd(g) and sgd.global_step == 1 and [p.name for p in sgd.parameters] == ['w', 'b']
assert np.allclose(w.asnumpy(), [0.95, -2.1]) and np.allclose(b.asnumpy(), [0.6])

v = Parameter(Tensor(np.array([1.0], np.float32)), name="v")
mom = nn.Momentum(ParameterTuple([v]), learning_rate=0.1, momentum=0.9)
grad = (Tensor(np.array([1.0], np.float32)),)
mom(grad)
mom(grad)  # accum 1 then 1.9: v = 1 - 0.1 - 0.19
assert np.allclose(v.asnumpy(), [0.71])

p = Parameter(Tensor(np.array([1.0], np.float32)), name="p")
adam = nn.Adam([p], learning_rate=0.01)
adam((Tensor(np.array([2.0], np.float32)),))
m, s = 0.1 * 2.0, 0.001 * 4.0
step = 0.01 * np.sqrt(1 - 0.999) / (1 - 0.9)
assert np.allclose(p.asnumpy(), [1.0 - step * m / (np.sqrt(s) + 1e-8)], atol=1e-6)

net = nn.Dense(2, 2)
decayed = nn.SGD(net.get_parameters(), learning_rate=Tensor(0.5, ms.float32), weight_decay=0.1)
assert decayed.learning_rate == 0.5 and decayed.get_lr().asnumpy() == 0.5
def expect(error, call, *words):
    try:
        call()
    except error as e:
        for word in words:
            assert word in str(e), (word, str(e))
    else:
        raise AssertionError("no %s" % error.__name__)
expect(ValueError, lambda: sgd((g[0],)), "SGD", "1 gradients for 2 parameters")
expect(TypeError, lambda: sgd(g[0]), "SGD", "tuple")
# Parameter groups and learning-rate lists are tests/mindspore_api/test_optimizers_more.py's.
expect(TypeError, lambda: nn.SGD([w], learning_rate="fast"), "learning_rate")
expect(ValueError, lambda: nn.SGD([w], momentum=-1.0), "momentum")
expect(TypeError, lambda: nn.Momentum([w], 0.1))
expect(TypeError, lambda: nn.Adam([w, Tensor([1.0])]), "Adam")
)PY");
}

TEST_CASE("WithLossCell and TrainOneStepCell run a Cell written in Python")
{
    checkPython(R"PY(
class Linear(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.5, -1.0], np.float32)), name="w")
    def construct(self, x):
        return (x * self.w).sum(axis=1)

x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], np.float32)
y = np.array([1.0, 0.0, 2.0], np.float32)
net = Linear()
with_loss = nn.WithLossCell(net, nn.MSELoss())
assert with_loss.backbone_network is net
w0 = net.w.asnumpy().copy()
loss = with_loss(Tensor(x), Tensor(y))
residual = x @ w0 - y
assert abs(loss.asnumpy() - (residual ** 2).mean()) < 1e-6
train = nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(), learning_rate=0.1))
assert [p.name for p in train.weights] == ['w'] and train.sens == 1.0
train.set_train()
first = train(Tensor(x), Tensor(y))
assert abs(first.asnumpy() - loss.asnumpy()) < 1e-6
expected = w0 - 0.1 * (2.0 / 3.0) * (x.T @ residual)
assert np.allclose(net.w.asnumpy(), expected, atol=1e-6), (net.w.asnumpy(), expected)
del with_loss, net  # the wrapper keeps the Python Cell alive
losses = [float(train(Tensor(x), Tensor(y)).asnumpy()) for _ in range(20)]
assert losses[-1] < losses[0]
)PY");
}

TEST_CASE("inside a training step a Python Cell's bprop result is the gradient used")
{
    checkPython(R"PY(
class Custom(nn.Cell):
    def construct(self, w, x):
        return w * x
    def bprop(self, w, x, out, dout):
        return w + x, x * 0   # not the true derivative: used verbatim, dout ignored

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
        self.custom = Custom()
    def construct(self, x):
        return self.custom(self.w, x)

net = Net()
x = np.array([1.0, -1.0], np.float32)
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.5))
train(Tensor(x), Tensor(np.zeros(2, np.float32)))
assert np.allclose(net.w.asnumpy(), [2.0 - 0.5 * 3.0, 3.0 - 0.5 * 2.0]), net.w.asnumpy()
)PY");
}

// mindspore.nn Cells from Python: a user LeNet5 subclass (parameter names, forward shape, repr,
// the Cell scope paths its ops record), attribute registration, calls with any arguments,
// train mode, containers, bprop Cells and the errors users meet. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "autodiff/observer.h"
#include "ops/op_def.h"

#include <catch2/catch.hpp>

#include <set>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

const std::string kPrelude = "import mindspore as ms\n"
                             "import numpy as np\n"
                             "from mindspore import nn, Tensor, Parameter, ParameterTuple\n"
                             "from mindspore.common.initializer import Normal\n";

// LeNet5 as SEMANTICS.md §7.7 (the MindSpore docs' lenet.py) writes it.
const std::string kLeNet5 = R"PY(
class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1, include_top=True):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if self.include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
            self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
            self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))

    def construct(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.conv2(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x
)PY";

void checkPython(const std::string& body)
{
    checkRuns(kPrelude + body);
}

/// Every forward op's "<Cell scope>/<op name>", as the debugger shows a node's source.
class ScopeRecorder : public ExecutionObserver {
public:
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent& event) override
    {
        if (event.phase == Phase::Forward && event.op)
            paths.insert((event.scope ? *event.scope + "/" : std::string()) + std::string(event.op->name));
    }

    std::set<std::string> paths;
};

} // namespace

TEST_CASE("a user LeNet5 names its parameters conv1.weight ... fc3.bias and maps a batch to logits")
{
    checkPython(kLeNet5 + R"PY(
net = LeNet5()
names = [p.name for p in net.trainable_params()]
assert names == ['conv1.weight', 'conv2.weight', 'fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias',
                 'fc3.weight', 'fc3.bias'], names
assert [n for n, _ in net.parameters_and_names()] == names
assert net.conv1.weight.shape == (6, 1, 5, 5) and net.fc1.weight.shape == (120, 400)
out = net(Tensor(np.random.randn(32, 1, 32, 32).astype(np.float32)))
assert isinstance(out, Tensor) and out.shape == (32, 10) and out.dtype == ms.float32, out.shape
features = LeNet5(include_top=False)(Tensor(np.ones((2, 1, 32, 32), np.float32)))
assert features.shape == (2, 16, 5, 5)
assert net.cls_name == "LeNet5" and isinstance(net, nn.Cell)
text = repr(net)
assert text.startswith("LeNet5<\n  (conv1): Conv2d<input_channels=1, output_channels=6"), text
assert "(max_pool2d): MaxPool2d<kernel_size=(2, 2), stride=(2, 2), pad_mode=VALID>" in text, text
assert "(fc3): Dense<input_channels=84, output_channels=10, has_bias=True>" in text, text
assert [n for n, _ in net.cells_and_names()][:3] == ['', 'conv1', 'conv2']
assert list(net.name_cells().keys()) == ['conv1', 'conv2', 'relu', 'max_pool2d', 'flatten', 'fc1', 'fc2', 'fc3']
)PY");
}

TEST_CASE("the ops of a user LeNet5 record scope paths built from the attribute names")
{
    TempDir dir;
    const auto script = dir.write("main.py", kPrelude + kLeNet5 + R"PY(
net = LeNet5()
net(Tensor(np.ones((2, 1, 32, 32), np.float32)))
seq = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU()])
seq(Tensor(np.ones((2, 3), np.float32)))
)PY");
    ensureHost();
    ScopeRecorder recorder;
    RunRequest request;
    request.script = script;
    request.timeout = std::chrono::seconds(20);
    request.observer = &recorder;
    ScriptRunner runner;
    const RunResult result = runner.run(std::move(request));
    INFO((result.diagnostic ? result.diagnostic->format() : std::string()));
    REQUIRE(result.status == RunStatus::Ok);
    for (const char* path : {"LeNet5/conv1/Conv2D", "LeNet5/conv2/Conv2D", "LeNet5/relu/ReLU",
                             "LeNet5/max_pool2d/MaxPool", "LeNet5/fc1/MatMul", "LeNet5/fc1/BiasAdd",
                             "LeNet5/fc3/MatMul", "SequentialCell/0/MatMul",
                             "SequentialCell/1/ReLU"}) {
        INFO(path);
        CHECK(recorder.paths.count(path) == 1);
    }
    for (const std::string& path : recorder.paths)
        CHECK(path.find("LeNet5/LeNet5") == std::string::npos);
}

TEST_CASE("assigning Cells and Parameters registers them while other attributes stay plain")
{
    checkPython(R"PY(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((3,), np.float32)), name="anything")
        self.fc = nn.Dense(2, 3)
        self.scale = 2.0
        self.layers = [nn.ReLU()]
    def construct(self, x):
        return self.fc(x) * self.w * self.scale

net = Net()
assert [p.name for p in net.trainable_params()] == ['w', 'fc.weight', 'fc.bias']
assert net.w.name == "w" and net.w is net.w and net.fc is net.fc
assert net.trainable_params()[0] is net.w and net.trainable_params()[1] is net.fc.weight
assert "scale" in net.__dict__ and "fc" not in net.__dict__ and net.scale == 2.0
assert list(net._cells.keys()) == ['fc'] and list(net._params.keys()) == ['w']
assert list(net.name_cells().keys()) == ['fc']  # a list of Cells is a plain attribute
frozen = Parameter(Tensor([1.0]), name="f", requires_grad=False)
net.insert_param_to_cell("frozen", frozen)
assert [p.name for p in net.get_parameters()] == ['w', 'frozen', 'fc.weight', 'fc.bias']
assert "frozen" not in [p.name for p in net.trainable_params()]

net.w = Tensor(np.zeros((3,), np.float32))  # a Tensor into a Parameter slot: set_data
assert net.w.asnumpy().tolist() == [0.0, 0.0, 0.0] and isinstance(net.w, Parameter)
try:
    net.fc = 3
except TypeError as e:
    assert "'fc'" in str(e) and "Cell" in str(e), str(e)
else:
    raise AssertionError("no TypeError")
try:
    net.missing
except AttributeError as e:
    assert str(e) == "'Net' object has no attribute 'missing'", str(e)
else:
    raise AssertionError("no AttributeError")

class Outer(nn.Cell):
    def __init__(self, prefix):
        super(Outer, self).__init__(auto_prefix=prefix)
        self.inner = Net()
    def construct(self, x):
        return self.inner(x)
assert [p.name for p in Outer(True).trainable_params()] == ['inner.w', 'inner.fc.weight', 'inner.fc.bias']
assert [p.name for p in Outer(False).trainable_params()] == ['w', 'fc.weight', 'fc.bias']
assert Outer(True)(Tensor(np.ones((1, 2), np.float32))).shape == (1, 3)
)PY");
}

TEST_CASE("assigning a Cell or a Parameter before super().__init__() is a MindSpore AttributeError")
{
    checkPython(R"PY(
class Early(nn.Cell):
    def __init__(self):
        self.fc = nn.Dense(2, 3)
        super().__init__()
class EarlyParam(nn.Cell):
    def __init__(self):
        self.plain = 1  # plain attributes are allowed, as in MindSpore
        self.w = Parameter(Tensor([1.0]), name="w")
        super().__init__()
for cls, kind in [(Early, "cells"), (EarlyParam, "params")]:
    try:
        cls()
    except AttributeError as e:
        assert "can not assign " + kind + " before Cell.__init__() is called" in str(e), str(e)
    else:
        raise AssertionError("no AttributeError")
)PY");
}

TEST_CASE("a Python Cell's construct gets the call's arguments as they are and returns anything")
{
    checkPython(R"PY(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 3, activation='relu')
    def construct(self, x, flag=True, *args, **kwargs):
        y = self.fc(x)
        return (y if flag else -y), args, kwargs, "text"

net = Net()
x = Tensor(np.ones((4, 2), np.float32))
y, args, kwargs, text = net(x, False, 1, [2], scale=3)
assert y.shape == (4, 3) and (y.asnumpy() <= 0).all()
assert args == (1, [2]) and kwargs == {'scale': 3} and text == "text"
assert net.set_grad() is net and net.set_train(False) is net

class Doubled(nn.Dense):  # a core layer subclassed in Python: its construct wins
    def construct(self, x):
        return super().construct(x) * 2
doubled = Doubled(2, 3)
assert np.allclose(doubled(x).asnumpy(), 2 * nn.Dense.construct(doubled, x).asnumpy())

class NoConstruct(nn.Cell):  # MindSpore 2.2's Cell.construct does nothing
    pass
assert NoConstruct()(x) is None and nn.Cell().construct() is None
)PY");
}

TEST_CASE("set_train reaches nested Cells: Dropout drops in training and is the identity otherwise")
{
    checkPython(R"PY(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell(nn.Dropout(p=0.5))
    def construct(self, x):
        return self.body(x)
net = Net()
x = Tensor(np.ones((4000,), np.float32))
assert not net.training and not net.body[0].training
assert (net(x).asnumpy() == 1).all()
net.set_train()
assert net.training and net.body[0].training
y = net(x).asnumpy()
assert set(np.unique(y).tolist()) <= {0.0, 2.0} and 0.4 < (y == 0).mean() < 0.6, (y == 0).mean()
net.set_train(False)
assert (net(x).asnumpy() == 1).all()
d = nn.Dropout(keep_prob=0.8)
assert abs(d.keep_prob - 0.8) < 1e-12 and abs(nn.Dropout().p - 0.5) < 1e-12 and nn.Dropout(p=0.0).keep_prob == 1.0
for bad in [dict(p=1.0), dict(p=-0.1), dict(keep_prob=0.0)]:
    try:
        nn.Dropout(**bad)
    except ValueError:
        pass
    else:
        raise AssertionError("no ValueError for %r" % bad)
)PY");
}

TEST_CASE("SequentialCell and CellList register their cells as children 0, 1, ...")
{
    checkPython(R"PY(
from collections import OrderedDict
seq = nn.SequentialCell([nn.Dense(2, 3), nn.ReLU()])
seq.append(nn.Dense(3, 1))
assert len(seq) == 3 and isinstance(seq[0], nn.Dense) and isinstance(seq[-1], nn.Dense)
assert [p.name for p in seq.trainable_params()] == ['0.weight', '0.bias', '2.weight', '2.bias']
assert seq(Tensor(np.ones((5, 2), np.float32))).shape == (5, 1)
assert nn.SequentialCell(nn.ReLU(), nn.Tanh())(Tensor([-1.0, 1.0])).asnumpy()[0] == 0.0
named = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 2)), ("act", nn.Sigmoid())]))
assert [p.name for p in named.trainable_params()] == ['fc.weight', 'fc.bias']
lst = nn.CellList([nn.Dense(2, 2), nn.ReLU()])
lst.append(nn.Tanh())
assert len(lst) == 3 and [type(c).__name__ for c in lst] == ['Dense', 'ReLU', 'Tanh']
try:
    seq[3]
except IndexError:
    pass
else:
    raise AssertionError("no IndexError")
)PY");
}

TEST_CASE("a Python Cell with a bprop runs its construct and rejects inputs that are not Tensors")
{
    checkPython(R"PY(
class Custom(nn.Cell):
    def construct(self, x, y):
        return x * y * y
    def bprop(self, x, y, out, dout):
        return x + y, x * y
c = Custom()
assert c(Tensor([1.0]), Tensor([2.0])).asnumpy().tolist() == [4.0]
try:
    c(Tensor([1.0]), 2.0)
except TypeError as e:
    assert "Custom" in str(e) and "bprop" in str(e) and "input 1" in str(e), str(e)
else:
    raise AssertionError("no TypeError")
try:
    c(Tensor([1.0]), y=Tensor([2.0]))
except TypeError as e:
    assert "positional" in str(e), str(e)
else:
    raise AssertionError("no TypeError")
)PY");
}

TEST_CASE("layer errors name the Cell and the shapes or arguments")
{
    checkPython(R"PY(
def expect(error, call, *words):
    try:
        call()
    except error as e:
        for w in words:
            assert w in str(e), (w, str(e))
    else:
        raise AssertionError("no %s" % error.__name__)
dense = nn.Dense(2, 3)
expect(ValueError, lambda: dense(Tensor(np.ones((4, 5), np.float32))), "Dense", "in_channels=2", "[4, 5]")
expect(TypeError, lambda: dense(3), "Dense", "input 0", "int")
expect(TypeError, lambda: dense(Tensor(np.ones((4, 2), np.float32)), x=1), "Dense", "positional")
expect(ValueError, lambda: nn.Conv2d(1, 6, 5, pad_mode='full'), "Conv2d", "pad_mode")
expect(ValueError, lambda: nn.Conv2d(1, 6, 5, data_format='NHWC'), "Conv2d", "NCHW")
expect(ValueError, lambda: nn.Conv2d(1, 6, (5, 5, 5)), "kernel_size", "3 values")
expect(TypeError, lambda: nn.Conv2d(1, 6, 5.0), "kernel_size", "float")
expect(ValueError, lambda: nn.MaxPool2d(0), "MaxPool2d")
expect(ValueError, lambda: nn.Dense(2, 3, weight_init='nonsense'), "nonsense")
expect(ValueError, lambda: nn.Dense(2, 3, activation='gelu2'), "gelu2")
expect(ValueError, lambda: nn.SoftmaxCrossEntropyWithLogits(reduction='avg'), "reduction")
expect(TypeError, lambda: nn.WithLossCell(dense, lambda a, b: a), "WithLossCell", "Cell")
expect(TypeError, lambda: nn.CellList([1]), "CellList", "should be Cell", "int")
assert nn.Conv2d(1, 2, (3, 5), stride=(1, 2), pad_mode='pad', padding=(1, 1, 2, 2)).weight.shape == (2, 1, 3, 5)
assert nn.Conv2d(3, 8, 3)(Tensor(np.ones((1, 3, 9, 9), np.float32))).shape == (1, 8, 9, 9)  # 'same'
assert nn.AvgPool2d(2, 2)(Tensor(np.ones((1, 1, 4, 4), np.float32))).shape == (1, 1, 2, 2)
assert repr(nn.Dense(2, 3, has_bias=False)) == "Dense<input_channels=2, output_channels=3>"
assert nn.Dense(2, 3, dtype=ms.float32).weight.dtype == ms.float32
expect(TypeError, lambda: nn.Dense(2, 3, dtype=ms.float64), "Dense", "float32")
class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()
    def extend_repr(self):
        return "scale=2"
    def construct(self, x):
        return self.act(x) * 2
assert repr(Scaled()) == "Scaled<\n  scale=2\n  (act): ReLU<>\n  >", repr(Scaled())
)PY");
}

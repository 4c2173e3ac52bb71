// set_context(inter_op_parallel_num=...): validated like MindSpore's settings, reset between
// runs, and a graph-mode training step gives the same bits on one thread and on two.
// SPDX-License-Identifier: MIT
#include "graph/inter_op_pool.h"
#include "tests/bench/lenet5_cell.h"
#include "tests/python/python_test_support.h"

#include <catch2/catch.hpp>

#include <string>

using namespace gradstep;
using namespace gradstep::python::test;

TEST_CASE("inter_op_parallel_num is checked, read back and reset for the next run", "[python][jit]")
{
    checkRuns(R"PY(
import mindspore as ms
assert ms.get_context("inter_op_parallel_num") == 0
for bad in (-1, 1.5, True, 257, "2", 2**70):
    try:
        ms.set_context(inter_op_parallel_num=bad)
    except ValueError as e:
        assert "inter_op_parallel_num" in str(e) and repr(bad) in str(e), str(e)
    else:
        raise AssertionError(f"inter_op_parallel_num={bad!r} was accepted")
ms.set_context(inter_op_parallel_num=1)
assert ms.get_context("inter_op_parallel_num") == 1
)PY");
    CHECK(InterOpPool::instance().threads() == 1);
    checkRuns("import mindspore as ms\nassert ms.get_context('inter_op_parallel_num') == 0\n");
    CHECK(InterOpPool::instance().threads() == InterOpPool::defaultThreads());
}

TEST_CASE("a graph-mode LeNet5 step gives the same bits with one inter-op thread and with two",
          "[python][jit]")
{
    checkRuns(std::string(bench::kLeNet5Cell) + R"PY(
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(1)

net = LeNet5()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, net.trainable_params())
x = Tensor(np.cos(0.13 * np.arange(32 * 32 * 32)).reshape(32, 1, 32, 32).astype(np.float32))
y = Tensor((np.arange(32) % 10).astype(np.int32))

def step():
    loss, grads = grad_fn(x, y)
    return [loss.asnumpy()] + [g.asnumpy() for g in grads]

ms.set_context(inter_op_parallel_num=1)
one = step()
ms.set_context(inter_op_parallel_num=2)
for _ in range(5):
    two = step()
    assert len(two) == len(one) == 9
    for a, b in zip(one, two):
        assert a.dtype == b.dtype and np.array_equal(a, b), (a, b)
)PY");
}

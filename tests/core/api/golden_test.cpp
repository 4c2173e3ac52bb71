// The golden vectors of MindSpore's grad / value_and_grad examples (SEMANTICS.md §1.7), each
// written like the snippet it comes from. SPDX-License-Identifier: MIT
#include "tests/core/api/api_test_util.h"

#include <cmath>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

// class Net(nn.Cell):
//     def construct(self, x, y, z): return x * y * z
Value xyz(const Args& a) { return a[0].tensor() * a[1].tensor() * a[2].tensor(); }

// x = Tensor([1, 2]); y = Tensor([-2, 3]); z = Tensor([0, 3])
Args xyzInputs() { return {f32({2}, {1, 2}), f32({2}, {-2, 3}), f32({2}, {0, 3})}; }

// class Net(nn.Cell):
//     def __init__(self): self.z = Parameter(Tensor(np.array([1.0], np.float32)), name='z')
//     def construct(self, x, y): return x * x * y * self.z
struct ParamNet {
    Parameter z{f32({1}, {1.0}), "z"};
    Value operator()(const Args& a) const { return a[0].tensor() * a[0].tensor() * a[1].tensor() * z; }
};

} // namespace

TEST_CASE("golden: grad(net, grad_position=(1, 2)) of x*y*z is (x*z, x*y)")
{
    Value output = grad(xyz, Positions{1, 2})(xyzInputs());
    requireTuple(output, 2);
    requireTensor(output[0], {2}, {0, 6});
    requireTensor(output[1], {2}, {-2, 6});
}

TEST_CASE("golden: value_and_grad(net, grad_position=1) of x*y*z is ([-0, 18], [0, 6])")
{
    Value result = valueAndGrad(xyz, 1)(xyzInputs());
    requireTuple(result, 2);
    requireTensor(result[0], {2}, {-0.0, 18});
    CHECK(std::signbit(result[0].tensor().at(0))); // -2 * 1 * 0 prints as -0.
    requireTensor(result[1], {2}, {0, 6});
}

TEST_CASE("golden: grad(net, (0, 1)) of x*x*y*z is (30, 9) and the weights-only grad is (45,)")
{
    ParamNet net;
    Args at{f32({1}, {3}), f32({1}, {5})};
    Value byPosition = grad(net, Positions{0, 1})(at);
    requireTuple(byPosition, 2);
    requireTensor(byPosition[0], {1}, {30});
    requireTensor(byPosition[1], {1}, {9});
    // ms.grad(net, grad_position=None, weights=ParameterTuple(net.trainable_params()))
    Value byWeights = grad(net, None, ParameterTuple{net.z})(at);
    requireTuple(byWeights, 1);
    requireTensor(byWeights[0], {1}, {45});
}

TEST_CASE("golden: stop_gradient halves the gradient of x*y + stop_gradient(x*y) from 10 to 5")
{
    Args at{f32({1}, {3}), f32({1}, {5})};
    Function withStop = [](const Args& a) -> Value {
        Tensor out = a[0].tensor() * a[1].tensor();
        return out + stopGradient(out);
    };
    Function without = [](const Args& a) -> Value {
        Tensor out = a[0].tensor() * a[1].tensor();
        return out + out;
    };
    requireTensor(grad(withStop)(at), {1}, {5});
    requireTensor(grad(without)(at), {1}, {10});
}

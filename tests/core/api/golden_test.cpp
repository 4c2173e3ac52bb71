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

TEST_CASE("golden: value_and_grad(net, grad_position=1) of x*y*z gives out -0, 18 and grad 0, 6")
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

TEST_CASE("golden: grad(fn, (1, 2), None, True) of (x*exp(y)*z^2, z) is ((75, 75), (30, 30)), aux (z,)")
{
    // def fn(x, y, z): res = x * ops.exp(y) * ops.pow(z, 2); return res, z
    Function fn = [](const Args& a) -> Value {
        const Tensor& x = a[0].tensor();
        const Tensor& y = a[1].tensor();
        const Tensor& z = a[2].tensor();
        return Value::tuple({x * exp(y) * pow(z, scalarLike(2, z)), z});
    };
    Args at{f32({2}, {3, 3}), f32({2}, {0, 0}), f32({2}, {5, 5})};
    Value result = grad(fn, Positions{1, 2}, None, true)(at);
    requireTuple(result, 2);
    Value gradient = result[0];
    Value aux = result[1];
    requireTuple(gradient, 2);
    requireTensor(gradient[0], {2}, {75, 75}, 1e-4);
    requireTensor(gradient[1], {2}, {30, 30}, 1e-4);
    requireTuple(aux, 1);
    requireTensor(aux[0], {2}, {5, 5});
    SECTION("value_and_grad gives the full output ((75, 75), (5, 5)) and the same gradient")
    {
        Value vg = valueAndGrad(fn, Positions{1, 2}, None, true)(at);
        requireTuple(vg[0], 2);
        requireTensor(vg[0][0], {2}, {75, 75}, 1e-4);
        requireTensor(vg[0][1], {2}, {5, 5});
        requireTensor(vg[1][0], {2}, {75, 75}, 1e-4);
        requireTensor(vg[1][1], {2}, {30, 30}, 1e-4);
    }
}

TEST_CASE("golden: grad(grad(sin)) at 3.1415926 is -sin(x), about -0")
{
    Function sinFn = [](const Args& a) -> Value { return sin(a[0].tensor()); };
    Value g2 = grad(grad(sinFn))({f32({1}, {3.1415926})});
    requireTensor(g2, {1}, {-std::sin(3.1415926)}, 1e-6);
}

TEST_CASE("golden: grad(grad(f)) of f = (sin x, cos x) at pi is -sin(pi) - cos(pi) = 1")
{
    Function fn = [](const Args& a) -> Value {
        const Tensor& x = a[0].tensor();
        return Value::tuple({sin(x), cos(x)});
    };
    requireTensor(grad(grad(fn))({f32({1}, {3.1415926})}), {1}, {1.0}, 1e-5);
}

TEST_CASE("golden: grad(grad(f, (0, 1)), (0, 1)) of (sin x - cos y, cos x - sin y) at pi is (1, -1)")
{
    Function fn = [](const Args& a) -> Value {
        const Tensor& x = a[0].tensor();
        const Tensor& y = a[1].tensor();
        return Value::tuple({sin(x) - cos(y), cos(x) - sin(y)});
    };
    Args at{f32({1}, {3.1415926}), f32({1}, {3.1415926})};
    Value g = grad(grad(fn, Positions{0, 1}), Positions{0, 1})(at);
    requireTuple(g, 2);
    requireTensor(g[0], {1}, {1.0}, 1e-5);
    requireTensor(g[1], {1}, {-1.0}, 1e-5);
}

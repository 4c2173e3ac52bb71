// Tests of ops.GradOperation(get_all, get_by_list, sens_param) (core/api/grad.cpp; SEMANTICS.md §2).
// SPDX-License-Identifier: MIT
#include "tests/core/api/api_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {

// class Net(nn.Cell): construct(self, x, y) = x * y * self.z, z = Parameter([2.0])
struct Net {
    Parameter z{f32({1}, {2.0}), "z"};
    Value operator()(const Args& a) const { return a[0].tensor() * a[1].tensor() * z; }
};

Args inputs() { return {f32({2}, {1, 3}), f32({2}, {4, -1})}; }

} // namespace

TEST_CASE("GradOperation() gives the gradient of the first input as a bare Tensor")
{
    Net net;
    requireTensor(GradOperation()(net)(inputs()), {2}, {8, -2});
    SECTION("a network without inputs gives an empty tuple")
    {
        Function constant = [z = net.z](const Args&) -> Value { return z * 3.0; };
        requireTuple(GradOperation()(constant)({}), 0);
    }
}

TEST_CASE("GradOperation(get_all=True) gives a tuple over all inputs, even for one input")
{
    Net net;
    Value g = GradOperation(true)(net)(inputs());
    requireTuple(g, 2);
    requireTensor(g[0], {2}, {8, -2});
    requireTensor(g[1], {2}, {2, 6});
    Function square = [](const Args& a) -> Value { return a[0].tensor() * a[0].tensor(); };
    Value one = GradOperation(true)(square)({f32({1}, {3})});
    requireTuple(one, 1);
    requireTensor(one[0], {1}, {6});
}

TEST_CASE("GradOperation(get_by_list=True) gives a tuple over the parameters")
{
    Net net;
    Parameter unused(f32({3}, {1, 1, 1}), "unused");
    Value g = GradOperation(false, true)(net, ParameterTuple{net.z, unused})(inputs());
    requireTuple(g, 2);
    requireTensor(g[0], {1}, {4 - 3});
    requireTensor(g[1], {3}, {0, 0, 0});
    SECTION("a lone Parameter gives a bare Tensor, as with grad")
    {
        requireTensor(GradOperation(false, true)(net, net.z)(inputs()), {1}, {1});
    }
    SECTION("the parameters are required")
    {
        REQUIRE_THROWS_AS(GradOperation(false, true)(net), TypeError);
    }
}

TEST_CASE("GradOperation(get_all=True, get_by_list=True) gives ((d_inputs...), (d_params...))")
{
    Net net;
    Value g = GradOperation(true, true)(net, ParameterTuple{net.z})(inputs());
    requireTuple(g, 2);
    requireTuple(g[0], 2);
    requireTensor(g[0][1], {2}, {2, 6});
    requireTuple(g[1], 1);
    requireTensor(g[1][0], {1}, {1});
}

TEST_CASE("GradOperation ignores parameters unless get_by_list is set")
{
    Net net;
    requireTensor(GradOperation()(net, ParameterTuple{net.z})(inputs()), {2}, {8, -2});
}

TEST_CASE("GradOperation(sens_param=True) takes the sens as the last argument")
{
    Net net;
    Tensor sens = f32({2}, {0.5, 2});
    Value g = GradOperation(true, false, true)(net)({f32({2}, {1, 3}), f32({2}, {4, -1}), sens});
    requireTuple(g, 2); // the sens is not an input of the network
    requireTensor(g[0], {2}, {4, -4});
    requireTensor(g[1], {2}, {1, 12});
}

namespace {

// class Net(nn.Cell):
//     def __init__(self):
//         self.matmul = P.MatMul()
//         self.z = Parameter(Tensor(np.array([1.0], np.float32)), name='z')
//     def construct(self, x, y): x = x * self.z; return self.matmul(x, y)
struct MatMulNet {
    Parameter z{f32({1}, {1.0}), "z"};
    Value operator()(const Args& a) const { return matmul(a[0].tensor() * z, a[1].tensor()); }
};

} // namespace

TEST_CASE("golden: GradOperation()(net) gives dx whose rows are the row sums of y")
{
    MatMulNet net;
    Tensor x = f32({2, 3}, {0.5, 0.6, 0.4, 1.2, 1.3, 1.1});
    Tensor y = f32({3, 3}, {0.01, 0.3, 1.1, 0.1, 0.2, 1.3, 2.1, 1.2, 3.3});
    requireTensor(GradOperation()(net)({x, y}), {2, 3}, {1.41, 1.6, 6.6, 1.41, 1.6, 6.6});
}

TEST_CASE("golden: GradOperation(get_by_list=True)(net, params) gives the 1-tuple (21.536,)")
{
    MatMulNet net;
    Tensor x = f32({2, 3}, {0.8, 0.6, 0.2, 1.8, 1.3, 1.1});
    Tensor y = f32({3, 3}, {0.11, 3.3, 1.1, 1.1, 0.2, 1.4, 1.1, 2.2, 0.3});
    Value g = GradOperation(false, true)(net, ParameterTuple{net.z})({x, y});
    requireTuple(g, 1);
    requireTensor(g[0], {1}, {21.536}, 1e-4);
}

TEST_CASE("golden: GradOperation(get_all=True, sens_param=True) gives dx = sens.y^T and dy = x^T.sens")
{
    MatMulNet net;
    Tensor x = f32({2, 3}, {0.8, 0.6, 0.2, 1.8, 1.3, 1.1});
    Tensor y = f32({3, 3}, {0.11, 3.3, 1.1, 1.1, 0.2, 1.4, 1.1, 2.2, 0.3});
    Tensor sens = f32({2, 3}, {0.1, 0.6, 0.2, 0.8, 1.3, 1.1});
    Value g = GradOperation(true, false, true)(net)({x, y, sens});
    requireTuple(g, 2);
    // The doc prints dx row 0 as [2.211, 0.51, 1.49].
    requireTensor(g[0], {2, 3},
                  {2.211, 0.51, 1.49,
                   0.8 * 0.11 + 1.3 * 3.3 + 1.1 * 1.1, 0.8 * 1.1 + 1.3 * 0.2 + 1.1 * 1.4,
                   0.8 * 1.1 + 1.3 * 2.2 + 1.1 * 0.3},
                  1e-5);
    std::vector<double> dy(9);
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 3; ++j)
            dy[k * 3 + j] = x.at(k) * sens.at(j) + x.at(3 + k) * sens.at(3 + j);
    requireTensor(g[1], {3, 3}, dy, 1e-5);
}

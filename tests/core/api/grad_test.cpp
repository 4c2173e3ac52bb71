// Tests of mindspore.grad / value_and_grad argument checks and return structures
// (core/api/grad.cpp; SEMANTICS.md §1.3 dispatch and validation, §1.4 the return table).
// SPDX-License-Identifier: MIT
#include "tests/core/api/api_test_util.h"

#include "autodiff/context.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {

// class Net(nn.Cell):
//     def construct(self, x, y, z): return x * y * z
Value net(const Args& a) { return a[0].tensor() * a[1].tensor() * a[2].tensor(); }

Tensor x() { return f32({2}, {1, 2}); }
Tensor y() { return f32({2}, {-2, 3}); }
Tensor z() { return f32({2}, {0, 3}); }

// f = x * x * y * z with z a Parameter [1.0] (SEMANTICS.md §1.7), evaluated at x = 3, y = 5:
// df/dx = 2xyz = 30, df/dy = x*x*z = 9, df/dz = x*x*y = 45.
struct WeightNet {
    Parameter z{f32({1}, {1.0}), "z"};
    Parameter unused{f32({2}, {7.0, 7.0}), "unused"};
    Function fn() const
    {
        return [z = z](const Args& a) -> Value {
            return a[0].tensor() * a[0].tensor() * a[1].tensor() * z;
        };
    }
};

Args threeAndFive() { return {f32({1}, {3}), f32({1}, {5})}; }

} // namespace

TEST_CASE("grad and value_and_grad refuse grad_position=None with weights=None in MindSpore's words")
{
    const char* text = "`grad_position` and `weight` can not be None at the same time.";
    REQUIRE_THROWS_MATCHES(grad(net, None, None), ValueError, Catch::Message(text));
    REQUIRE_THROWS_MATCHES(valueAndGrad(net, None, None), ValueError, Catch::Message(text));
    REQUIRE_THROWS_MATCHES(grad(net, None, None, true), ValueError, Catch::Message(text));
}

TEST_CASE("a grad_position tuple with a repeated position is a ValueError when grad is built")
{
    REQUIRE_THROWS_MATCHES(grad(net, Positions{1, 1}), ValueError,
                           Catch::Message("There are duplicate positions in `grad_position`, "
                                          "please check it"));
    REQUIRE_THROWS_AS(valueAndGrad(net, Positions{0, 2, 0}), ValueError);
    SECTION("duplicates are reported before negative values, as MindSpore checks them first")
    {
        REQUIRE_THROWS_WITH(grad(net, Positions{-1, -1}), Catch::Contains("duplicate"));
    }
}

TEST_CASE("a negative grad_position is a ValueError, as an int and inside a tuple")
{
    REQUIRE_THROWS_MATCHES(grad(net, -1), ValueError, Catch::Message("grad_position must be >= 0."));
    REQUIRE_THROWS_MATCHES(grad(net, Positions{0, -2}), ValueError,
                           Catch::Message("The element in grad_position must be >= 0."));
    REQUIRE_THROWS_AS(valueAndGrad(net, -3), ValueError);
}

TEST_CASE("a grad_position past the last argument fails when the function is called, as MindSpore's engines do")
{
    auto gradFn = grad(net, Positions{1, 3});
    // PyNative's engine: a RuntimeError.
    REQUIRE_THROWS_MATCHES(gradFn({x(), y(), z()}), RuntimeError,
                           Catch::Message("Position index 3 is exceed input size."));
    REQUIRE_THROWS_AS(valueAndGrad(net, 3)({x(), y(), z()}), RuntimeError);
    SECTION("with sens_param the sens is not an argument of fn")
    {
        Tensor sens = f32({2}, {1, 1});
        REQUIRE_THROWS_MATCHES(grad(net, 3, None, false, true)({x(), y(), z(), sens}), RuntimeError,
                               Catch::Message("Position index 3 is exceed input size."));
    }
    SECTION("graph mode's engine: an IndexError, with or without inputs")
    {
        GraphDifferentiatorGuard graphMode([](const std::vector<Value>&, const Value&, const GradRequest&) {
            return GradResult{};
        });
        REQUIRE_THROWS_MATCHES(grad(net, 0)({}), IndexError, Catch::Message("Position index 0 is exceed input size."));
    }
    SECTION("PyNative's engine checks only a function with inputs: with none, nothing is selected")
    {
        Function constant = [](const Args&) -> Value { return Value(f32({1}, {3})); };
        const Value g = grad(constant, Positions{0, 1})({});
        requireTuple(g, 0);
    }
}

TEST_CASE("an empty grad_position tuple is refused when the function is called")
{
    auto gradFn = grad(net, Positions{});
    REQUIRE_THROWS_MATCHES(gradFn({x(), y(), z()}), RuntimeError,
                           Catch::Message("grad_position should not be empty when grad by position!"));
}

TEST_CASE("an int grad_position gives a bare Tensor shaped like that argument")
{
    // grad(net, grad_position=1)(x, y, z) -> d(xyz)/dy = x * z
    Value g = grad(net, 1)({x(), y(), z()});
    requireTensor(g, {2}, {0, 6});
    SECTION("value_and_grad gives (out, G_in)")
    {
        Value vg = valueAndGrad(net, 1)({x(), y(), z()});
        requireTuple(vg, 2);
        requireTensor(vg[0], {2}, {-0.0, 18});
        requireTensor(vg[1], {2}, {0, 6});
    }
    SECTION("the default grad_position is 0")
    {
        requireTensor(grad(net)({x(), y(), z()}), {2}, {0, 9});
    }
}

TEST_CASE("a grad_position tuple gives a tuple of gradients in the tuple's order")
{
    Value g = grad(net, Positions{2, 0})({x(), y(), z()});
    requireTuple(g, 2);
    requireTensor(g[0], {2}, {-2, 6}); // dz = x * y
    requireTensor(g[1], {2}, {0, 9});  // dx = y * z
    SECTION("value_and_grad gives (out, tuple)")
    {
        Value vg = valueAndGrad(net, Positions{2, 0})({x(), y(), z()});
        requireTuple(vg, 2);
        requireTensor(vg[0], {2}, {-0.0, 18});
        requireTuple(vg[1], 2);
        requireTensor(vg[1][0], {2}, {-2, 6});
    }
}

TEST_CASE("a grad_position 1-tuple gives a bare Tensor like the int it stands for")
{
    // SEMANTICS.md marks this row INFERRED; core/api/grad.cpp (positionPart) cites the engine.
    requireTensor(grad(net, Positions{1})({x(), y(), z()}), {2}, {0, 6});
    Value vg = valueAndGrad(net, Positions{1})({x(), y(), z()});
    requireTuple(vg, 2);
    requireTensor(vg[1], {2}, {0, 6});
}

TEST_CASE("weights with grad_position=None give a tuple with one gradient per weight, in order")
{
    WeightNet w;
    Value g = grad(w.fn(), None, ParameterTuple{w.unused, w.z})(threeAndFive());
    requireTuple(g, 2);
    requireTensor(g[0], {2}, {0, 0}); // a weight fn never uses gets zeros of its shape
    requireTensor(g[1], {1}, {45});
    SECTION("value_and_grad gives (out, tuple)")
    {
        Value vg = valueAndGrad(w.fn(), None, ParameterTuple{w.z})(threeAndFive());
        requireTuple(vg, 2);
        requireTensor(vg[0], {1}, {45});
        requireTuple(vg[1], 1);
        requireTensor(vg[1][0], {1}, {45});
    }
}

TEST_CASE("one weight gives a 1-tuple in a list and a bare Tensor as a lone Parameter")
{
    WeightNet w;
    // ms.grad(net, grad_position=None, weights=ParameterTuple(...)) -> (Tensor([45.]),)
    Value listed = grad(w.fn(), None, ParameterTuple{w.z})(threeAndFive());
    requireTuple(listed, 1);
    requireTensor(listed[0], {1}, {45});
    // The UNCONFIRMED row of SEMANTICS.md §1.4; core/api/grad.cpp (weightPart) cites the engine.
    requireTensor(grad(w.fn(), None, w.z)(threeAndFive()), {1}, {45});
}

TEST_CASE("grad_position and weights together give (G_in, G_w)")
{
    WeightNet w;
    Value g = grad(w.fn(), Positions{0, 1}, ParameterTuple{w.z})(threeAndFive());
    requireTuple(g, 2);
    requireTuple(g[0], 2);
    requireTensor(g[0][0], {1}, {30});
    requireTensor(g[0][1], {1}, {9});
    requireTuple(g[1], 1);
    requireTensor(g[1][0], {1}, {45});
    SECTION("an int position keeps its bare Tensor inside the pair")
    {
        Value h = grad(w.fn(), 0, ParameterTuple{w.z})(threeAndFive());
        requireTuple(h, 2);
        requireTensor(h[0], {1}, {30});
        requireTuple(h[1], 1);
    }
    SECTION("value_and_grad gives (out, (G_in, G_w))")
    {
        Value vg = valueAndGrad(w.fn(), 1, ParameterTuple{w.z})(threeAndFive());
        requireTuple(vg, 2);
        requireTensor(vg[0], {1}, {45});
        requireTuple(vg[1], 2);
        requireTensor(vg[1][0], {1}, {9});
        requireTensor(vg[1][1][0], {1}, {45});
    }
}

TEST_CASE("has_aux gives (G, aux) with aux a tuple, and value_and_grad gives (full output, G)")
{
    WeightNet w;
    Function fn = [f = w.fn()](const Args& a) -> Value {
        Tensor out = f(a).tensor();
        return Value::tuple({out, a[1].tensor() * 2.0});
    };
    Value g = grad(fn, 0, None, true)(threeAndFive());
    requireTuple(g, 2);
    requireTensor(g[0], {1}, {30});
    requireTuple(g[1], 1); // a single aux output is still a 1-tuple: grads, (aux,) = ...
    requireTensor(g[1][0], {1}, {10});
    SECTION("the gradient part keeps the structure it has without has_aux")
    {
        Value both = grad(fn, Positions{0, 1}, ParameterTuple{w.z}, true)(threeAndFive());
        requireTuple(both, 2);
        requireTuple(both[0], 2);
        requireTuple(both[0][0], 2);
        requireTuple(both[0][1], 1);
        requireTensor(both[0][1][0], {1}, {45});
        requireTuple(both[1], 1);
    }
    SECTION("value_and_grad returns every output, aux included, and no aux tuple")
    {
        Value vg = valueAndGrad(fn, 0, None, true)(threeAndFive());
        requireTuple(vg, 2);
        requireTuple(vg[0], 2);
        requireTensor(vg[0][0], {1}, {45});
        requireTensor(vg[0][1], {1}, {10});
        requireTensor(vg[1], {1}, {30});
    }
}

TEST_CASE("a grad_position holding an integer tensor gets the gradient cast to its dtype")
{
    // MindSpore differentiates integer inputs: Cast's bprop casts the incoming gradient back to
    // the input's dtype (see carriesGradient).
    Function fn = [](const Args& a) -> Value {
        return a[0].tensor() * cast(a[1].tensor(), DType::Float32);
    };
    Tensor labels = Tensor::fromVector<std::int32_t>({2}, {4, 5});
    Value g = grad(fn, Positions{0, 1})({f32({2}, {1, 1}), labels});
    requireTuple(g, 2);
    requireTensor(g[0], {2}, {4, 5});
    REQUIRE(g[1].tensor().dtype() == DType::Int32);
    requireTensor(g[1], {2}, {1, 1});
}

TEST_CASE("a grad_position holding no Tensor selects nothing, as MindSpore's engines skip such inputs")
{
    Function fn = [](const Args& a) -> Value { return a[0].tensor() * 2.0; };
    Args args{f32({1}, {1}), Value::tuple({f32({1}, {2})})};
    requireTuple(grad(fn, 1)(args), 0);
    // One tensor position left: a bare gradient, as for a single position.
    requireTensor(grad(fn, Positions{0, 1})(args), {1}, {2});
    Args none{f32({1}, {1}), Value()};
    requireTuple(grad(fn, Positions{1})(none), 0);
}

TEST_CASE("grad inside a no-grad region is refused instead of returning zeros")
{
    NoGradGuard noGrad;
    REQUIRE_THROWS_MATCHES(grad(net)({x(), y(), z()}), RuntimeError,
                           Catch::Message("In no_grad context, you can not calculate gradient"));
}

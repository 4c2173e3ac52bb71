// Tests of what differentiate() seeds and cuts: tuple outputs, has_aux and sens
// (core/api/differentiate.cpp; SEMANTICS.md §1.5, §1.6, sens_param of §1.2 and §2).
// SPDX-License-Identifier: MIT
#include "tests/core/api/api_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {

// def fn(x, y): return x * y, x * x
Value twoOutputs(const Args& a)
{
    const Tensor& x = a[0].tensor();
    const Tensor& y = a[1].tensor();
    return Value::tuple({x * y, x * x});
}

Tensor x() { return f32({2}, {3, -1}); }
Tensor y() { return f32({2}, {5, 4}); }

} // namespace

TEST_CASE("without has_aux every output is differentiated, as the gradient of their sum")
{
    // d(x*y + x*x)/dx = y + 2x
    requireTensor(grad(twoOutputs)({x(), y()}), {2}, {11, 2});
    SECTION("nested output tuples are flattened and summed too")
    {
        Function nested = [](const Args& a) -> Value {
            const Tensor& x = a[0].tensor();
            return Value::tuple({Value::tuple({x * 2.0, x * x}), reduceSum(x * x * x)});
        };
        // d(2x + x^2 + sum x^3)/dx = 2 + 2x + 3x^2
        requireTensor(grad(nested)({x()}), {2}, {2 + 6 + 27, 2 - 2 + 3});
    }
    SECTION("the same tensor returned twice is counted twice")
    {
        Function twice = [](const Args& a) -> Value {
            Tensor y = a[0].tensor() * 3.0;
            return Value::tuple({y, y});
        };
        requireTensor(grad(twice)({x()}), {2}, {6, 6});
    }
}

TEST_CASE("value_and_grad without has_aux returns the whole output tuple and the summed gradient")
{
    Value vg = valueAndGrad(twoOutputs)({x(), y()});
    requireTuple(vg, 2);
    requireTuple(vg[0], 2);
    requireTensor(vg[0][0], {2}, {15, -4});
    requireTensor(vg[0][1], {2}, {9, 1});
    requireTensor(vg[1], {2}, {11, 2});
}

TEST_CASE("has_aux differentiates output 0 only and passes the other outputs through")
{
    Value g = grad(twoOutputs, 0, None, true)({x(), y()});
    requireTuple(g, 2);
    requireTensor(g[0], {2}, {5, 4});
    requireTuple(g[1], 1);
    requireTensor(g[1][0], {2}, {9, 1});
    SECTION("aux keeps the structure fn gave it")
    {
        Function fn = [](const Args& a) -> Value {
            const Tensor& x = a[0].tensor();
            return Value::tuple({x * x, Value::tuple({x * 2.0, x * 3.0}), x});
        };
        Value h = grad(fn, 0, None, true)({x()});
        requireTensor(h[0], {2}, {6, -2});
        requireTuple(h[1], 2);
        requireTuple(h[1][0], 2);
        requireTensor(h[1][0][1], {2}, {9, -3});
        requireTensor(h[1][1], {2}, {3, -1});
    }
}

TEST_CASE("has_aux with a single output is a ValueError")
{
    const char* text = "When has_aux is True, origin fn requires more than one outputs.";
    Function single = [](const Args& a) -> Value { return a[0].tensor() * 2.0; };
    Function oneTuple = [](const Args& a) -> Value { return Value::tuple({a[0].tensor() * 2.0}); };
    REQUIRE_THROWS_MATCHES(grad(single, 0, None, true)({x()}), ValueError, Catch::Message(text));
    REQUIRE_THROWS_MATCHES(grad(oneTuple, 0, None, true)({x()}), ValueError, Catch::Message(text));
    REQUIRE_THROWS_MATCHES(valueAndGrad(single, 0, None, true)({x()}), ValueError, Catch::Message(text));
}

TEST_CASE("aux outputs are stop-gradient'ed, so an enclosing grad sees no gradient through them")
{
    // outer(x) = aux of grad(fn, has_aux=True)(x, y) = x * x without has_aux would give 2x.
    Function throughAux = [](const Args& a) -> Value {
        return grad(twoOutputs, 0, None, true)(a)[1][0];
    };
    requireTensor(grad(throughAux)({x(), y()}), {2}, {0, 0});
    SECTION("value_and_grad's full output cuts aux too but keeps output 0 differentiable")
    {
        auto withAux = valueAndGrad(twoOutputs, 0, None, true);
        Function out0 = [withAux](const Args& a) -> Value { return withAux(a)[0][0]; };
        Function out1 = [withAux](const Args& a) -> Value { return withAux(a)[0][1]; };
        requireTensor(grad(out0)({x(), y()}), {2}, {5, 4});
        requireTensor(grad(out1)({x(), y()}), {2}, {0, 0});
    }
    SECTION("without has_aux the same output carries its gradient")
    {
        Function out1 = [](const Args& a) -> Value { return valueAndGrad(twoOutputs)(a)[0][1]; };
        requireTensor(grad(out1)({x(), y()}), {2}, {6, -2});
    }
}

TEST_CASE("sens_param takes the output's cotangent as the last positional argument")
{
    Function square = [](const Args& a) -> Value { return a[0].tensor() * a[0].tensor(); };
    // sens * d(x^2)/dx = sens * 2x
    requireTensor(grad(square, 0, None, false, true)({x(), f32({2}, {0.5, 2})}), {2}, {3, -4});
    SECTION("value_and_grad runs fn without the sens")
    {
        Value vg = valueAndGrad(square, 0, None, false, true)({x(), f32({2}, {0.5, 2})});
        requireTensor(vg[0], {2}, {9, 1});
        requireTensor(vg[1], {2}, {3, -4});
    }
    SECTION("a tuple output takes a tuple sens, one tensor per output")
    {
        Value sens = Value::tuple({f32({2}, {1, 0}), f32({2}, {0, 1})});
        // 1 * y on the first element (from x*y), 1 * 2x on the second (from x*x)
        requireTensor(grad(twoOutputs, 0, None, false, true)({x(), y(), sens}), {2}, {5, -2});
    }
    SECTION("with has_aux the sens is the cotangent of output 0 only")
    {
        Value g = grad(twoOutputs, 0, None, true, true)({x(), y(), f32({2}, {2, 2})});
        requireTensor(g[0], {2}, {10, 8});
        requireTensor(g[1][0], {2}, {9, 1});
    }
}

TEST_CASE("a sens that does not match the output is refused")
{
    Function square = [](const Args& a) -> Value { return a[0].tensor() * a[0].tensor(); };
    auto gradFn = grad(square, 0, None, false, true);
    SECTION("wrong shape: ValueError naming both shapes")
    {
        REQUIRE_THROWS_MATCHES(gradFn({x(), f32({3}, {1, 1, 1})}), ValueError,
                               Catch::Message("The sens shape should be [2] (output 0), but got [3]"));
    }
    SECTION("wrong dtype: TypeError")
    {
        REQUIRE_THROWS_MATCHES(gradFn({x(), f64({2}, {1, 1})}), TypeError,
                               Catch::Message("The sens dtype should be Float32 (output 0), "
                                              "but got Float64"));
    }
    SECTION("wrong number of tensors: RuntimeError")
    {
        Tensor ones = f32({2}, {1, 1});
        REQUIRE_THROWS_AS(gradFn({x(), Value::tuple({ones, ones})}), RuntimeError);
        REQUIRE_THROWS_AS(grad(twoOutputs, 0, None, false, true)({x(), y(), ones}), RuntimeError);
    }
    SECTION("no argument at all: TypeError")
    {
        Function constant = [](const Args&) -> Value { return f32({1}, {1}); };
        REQUIRE_THROWS_AS(GradOperation(false, false, true)(constant)({}), TypeError);
    }
}

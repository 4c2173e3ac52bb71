// The Custom op: one node named by its function, the kernel's values, its bprop or the error
// when it has none, a kernel that no longer exists, and aot libraries that cannot be loaded.
// SPDX-License-Identifier: MIT
#include "ops/custom/aot_function.h"
#include "ops/custom/custom_kernel.h"

#include "api/grad.h"
#include "autodiff/tape.h"
#include "ops/dispatch.h"
#include "ops/ops.h"
#include "tests/core/ops/custom/cube_kernel.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("a Custom op runs its kernel as one node that names its function")
{
    const CustomOp cube(cubeKernel());
    Tape tape;
    Tensor y;
    {
        TapeGuard guard(tape);
        Tensor x = Tensor::fromVector<double>({3}, {1, -2, 0.5});
        Tensor xs[] = {x};
        Tensor leaf[] = {x.detach()};
        recordCustom("Input0", xs, leaf, [](const BackwardContext&, std::span<const Tensor> g) {
            return TensorList{Tensor(g[0])};
        });
        Tensor in[] = {leaf[0]};
        y = cube(in)[0];
    }
    CHECK(y.toDoubles() == std::vector<double>{1, -8, 0.125});
    REQUIRE(tape.size() == 2);
    const Node& node = *tape.nodes()[1];
    CHECK(node.opName() == "Custom");
    CHECK(node.attrs.getString("func_name", "") == "cube");
    CHECK(node.attrs.getString("func_type", "") == "test");
    CHECK(node.inputs.size() == 1);
}

TEST_CASE("the gradient of a Custom op comes from its bprop, and without one it is MindSpore's error")
{
    const CustomOp cube(cubeKernel());
    Function f = [&](const std::vector<Value>& args) -> Value {
        Tensor in[] = {args[0].tensor()};
        return reduceSum(cube(in)[0]);
    };
    const Value g = grad(f)({Value(Tensor::fromVector<double>({2}, {2, -1}))});
    CHECK(g.tensor().toDoubles() == std::vector<double>{12, 3});

    const CustomOp plain(cubeKernel(false));
    Function h = [&](const std::vector<Value>& args) -> Value {
        Tensor in[] = {args[0].tensor()};
        return reduceSum(plain(in)[0]);
    };
    CHECK_THROWS_WITH(grad(h)({Value(Tensor::fromVector<double>({2}, {2, -1}))}),
                      Catch::Contains("Primitive Custom's bprop not defined") && Catch::Contains("'cube'"));
}

TEST_CASE("a Custom node whose op was destroyed before backward names its function")
{
    // The node keeps the attrs only (Note [Custom kernels]): the op dies with f's scope.
    Function f = [](const std::vector<Value>& args) -> Value {
        const CustomOp local(cubeKernel());
        Tensor in[] = {args[0].tensor()};
        return reduceSum(local(in)[0]);
    };
    CHECK_THROWS_WITH(grad(f)({Value(Tensor::fromVector<double>({1}, {2}))}),
                      Catch::Contains("the function 'cube' of this Custom op no longer exists"));
    Tensor in[] = {Tensor::fromVector<double>({1}, {2})};
    CHECK_THROWS_WITH(callOp(kCustom, in), Catch::Contains("needs the attr 'kernel'"));
}

TEST_CASE("an aot library or function that cannot be found is an error naming it")
{
    CHECK_THROWS_WITH(AotFunction("/nonexistent/custom.so", "CustomAdd"),
                      Catch::Contains("dlopen file '/nonexistent/custom.so'"));
    CHECK(std::string(dtypeLowerName(DType::Float32)) == "float32");
    CHECK(std::string(dtypeLowerName(DType::Bool)) == "bool");
}

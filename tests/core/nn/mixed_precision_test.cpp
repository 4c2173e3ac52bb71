// Cell mixed precision (Cell::setMixedPrecision / setOutputCast; Note [Mixed precision] in
// ops/dispatch.cpp): ops inside such a Cell get their float inputs cast, the innermost Cell with a
// type wins, gradients reach the float32 weights through the casts, and the output cast hands a
// float16 result on as float32. SPDX-License-Identifier: MIT
#include "nn/cell.h"

#include "api/grad.h"
#include "autodiff/context.h"
#include "autodiff/tape.h"
#include "nn/layers/dense.h"
#include "ops/ops.h"
#include "tensor/dtype_storage.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {

// y = inner(x) * 3: an op of its own around a child.
class Outer : public Cell {
public:
    Outer() : Cell("Outer") { inner = registerChild("inner", std::make_shared<Dense>(2, 2)); }
    Value construct(const std::vector<Value>& args) override
    {
        return Value((*inner)(tensorArg(args, 0, 1)).tensor() * Tensor::scalar(3.0));
    }
    std::shared_ptr<Dense> inner;
};

float roundToHalf(float v) { return static_cast<float>(Eigen::half(v)); }

} // namespace

TEST_CASE("a float16 Cell casts its inputs and Parameters and rounds each op's result")
{
    Dense dense(2, 2);
    dense.setMixedPrecision(DType::Float16);
    const Tensor x = Tensor::fromVector<float>({1, 2}, {1.f / 3.f, 0.1f});
    Tape tape;
    Tensor y;
    {
        TapeGuard guard(tape);
        y = dense(x).tensor();
    }
    CHECK(y.dtype() == DType::Float16);
    CHECK(dense.weight().dtype() == DType::Float32);
    std::vector<std::string> labels;
    for (const auto& node : tape.nodes())
        labels.push_back(node->label());
    // The weight and the bias are cast in the Cell's scope before MatMul / BiasAdd use them (x is
    // cast too, at the Cell's boundary, but needs no gradient, so its Cast records no node).
    CHECK(labels == std::vector<std::string>{"Dense/Cast", "Dense/MatMul", "Dense/Cast", "Dense/BiasAdd"});
    const float* w = dense.weight().data<float>();
    const float* b = dense.bias().data<float>();
    for (int o = 0; o < 2; ++o) {
        const float dot = roundToHalf(roundToHalf(1.f / 3.f) * roundToHalf(w[o * 2])
                                      + roundToHalf(0.1f) * roundToHalf(w[o * 2 + 1]));
        const float expected = roundToHalf(dot + roundToHalf(b[o]));
        CHECK(static_cast<float>(y.data<Eigen::half>()[o]) == expected);
    }
    CHECK(executionContext().mixedPrecision == std::nullopt);
}

TEST_CASE("the innermost Cell with a type wins, and the output cast hands float32 on")
{
    Outer outer;
    outer.setMixedPrecision(DType::Float16);
    const Tensor x = Tensor::fromVector<float>({1, 2}, {1.f, 2.f});
    CHECK(outer(x).tensor().dtype() == DType::Float16); // inner inherits float16; Mul in float16

    outer.inner->setMixedPrecision(DType::Float32);
    outer.setMixedPrecision(std::nullopt);
    CHECK(outer(x).tensor().dtype() == DType::Float32);

    outer.inner->setMixedPrecision(DType::Float16);
    outer.inner->setOutputCast(DType::Float32);
    const Tensor y = outer(x).tensor();
    CHECK(y.dtype() == DType::Float32); // inner's float16 result was cast back before the Mul
    const Tensor direct = (*outer.inner)(x).tensor();
    CHECK(direct.dtype() == DType::Float32);
    CHECK(y.data<float>()[0] == direct.data<float>()[0] * 3.f);
}

TEST_CASE("gradients of a float16 Cell reach its float32 weights as float32")
{
    auto dense = std::make_shared<Dense>(2, 1);
    dense->setMixedPrecision(DType::Float16);
    const Tensor x = Tensor::fromVector<float>({1, 2}, {0.5f, 4.f});
    auto fn = [dense](const std::vector<Value>& args) {
        return Value(reduceSum((*dense)(args[0].tensor()).tensor()));
    };
    const Value grads = grad(fn, std::monostate{}, std::vector<Parameter>{dense->weight(), dense->bias()})({x});
    const Tensor gw = grads.items()[0].tensor(), gb = grads.items()[1].tensor();
    CHECK(gw.dtype() == DType::Float32);
    CHECK(gb.dtype() == DType::Float32);
    CHECK(gw.data<float>()[0] == 0.5f);
    CHECK(gw.data<float>()[1] == 4.f);
    CHECK(gb.data<float>()[0] == 1.f);
}

TEST_CASE("an explicit Cast inside a float16 Cell is left to do what it says")
{
    class CastBack : public Cell {
    public:
        CastBack() : Cell("CastBack") {}
        Value construct(const std::vector<Value>&) override
        {
            return Value(cast(Tensor::fromVector<double>({1}, {0.1}), DType::Float32));
        }
    };
    CastBack c;
    c.setMixedPrecision(DType::Float16);
    const Tensor y = c(std::vector<Value>{}).tensor();
    CHECK(y.dtype() == DType::Float32);
    CHECK(y.data<float>()[0] == 0.1f); // not rounded through float16 first
}

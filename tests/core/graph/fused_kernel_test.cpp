// Tests of the fused elementwise kernel (core/graph/fused_kernel.cpp): every instruction gives
// bit for bit what its op's own kernel gives, NaN, infinities and signed zeros included, in
// Float32 and Float64, across block boundaries and for repeating (bias, scalar) operands.
// SPDX-License-Identifier: MIT
#include "graph/fused_kernel.h"

#include "graph/executor.h"
#include "ops/dispatch.h"
#include "ops/elementwise/defs.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace gradstep;

namespace {

// Special values first, then a spread of ordinary ones; n elements in all.
Tensor values(DType dtype, std::int64_t n, unsigned seed)
{
    const double inf = std::numeric_limits<double>::infinity();
    const double special[] = {std::nan(""), inf,   -inf,  0.0,  -0.0,  1.0,  -1.0,
                              0.5,          1e-30, -1e30, 20.0, -20.0, 88.5, -745.0};
    std::vector<double> v(static_cast<std::size_t>(n));
    std::uint64_t state = seed;
    for (std::size_t i = 0; i < v.size(); ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
        v[i] = i < std::size(special) ? special[(i + seed) % std::size(special)] : 8 * u - 4;
    }
    return Tensor::fromDoubles(Shape{n}, v, dtype);
}

bool sameBits(const Tensor& a, const Tensor& b)
{
    if (a.dtype() != b.dtype() || !(a.shape() == b.shape()))
        return false;
    if (a.dtype() == DType::Bool)
        return std::memcmp(a.rawData(), b.rawData(), a.nbytes()) == 0;
    for (std::int64_t i = 0; i < a.numel(); ++i) {
        const double x = a.at(i), y = b.at(i);
        if (std::isnan(x) && std::isnan(y))
            continue;
        if (x != y || std::signbit(x) != std::signbit(y))
            return false;
    }
    return true;
}

// One op over `inputs`, fused (a one-member kernel) and through the op's kernel.
void checkOp(const OpDef& op, const TensorList& inputs, const Attrs& attrs = {})
{
    Graph members("fused");
    std::vector<ValueId> ids;
    for (const Tensor& t : inputs)
        ids.push_back(members.addInput("", {t.shape(), t.dtype()}));
    members.setOutputs(members.addNode(op, ids, attrs));
    const FusedKernel kernel(members);
    const TensorSpec& spec = members.spec(members.outputs()[0]);
    Tensor fused = Tensor::empty(spec.shape, spec.dtype);
    Tensor out[] = {fused};
    kernel.run(inputs, out);
    const Tensor expected = callOp1(op, std::span<const Tensor>(inputs), attrs);
    INFO(op.name << " " << dtypeName(inputs[0].dtype()) << " " << inputs[0].shape().toString());
    CHECK(sameBits(fused, expected));
}

} // namespace

TEST_CASE("every fused instruction matches its op's kernel bit for bit")
{
    const OpDef* unary[] = {&kNeg, &kSquare, &kAbs, &kSign, &kExp,     &kLog,      &kSqrt, &kRsqrt,
                            &kSin, &kCos,    &kErf, &kTanh, &kSigmoid, &kSoftplus, &kReLU};
    const OpDef* binary[] = {&kAdd,     &kSub,          &kMul,  &kRealDiv,   &kMaximum, &kMinimum,
                             &kGreater, &kGreaterEqual, &kLess, &kLessEqual, &kEqual,   &kNotEqual};
    for (DType dtype : {DType::Float32, DType::Float64}) {
        for (std::int64_t n : {std::int64_t{1}, std::int64_t{37}, std::int64_t{1300}}) {
            const Tensor a = values(dtype, n, 1), b = values(dtype, n, 5);
            for (const OpDef* op : unary)
                checkOp(*op, {a});
            for (const OpDef* op : binary)
                checkOp(*op, {a, b});
            checkOp(kLeakyReLU, {a}, Attrs{{"alpha", 0.3}});
            const Tensor condition = callOp1(kGreater, {a, b});
            checkOp(kSelect, {condition, a, b});
        }
    }
}

TEST_CASE("a fused chain with a repeating bias and a scalar equals the unfused graph")
{
    Graph g("g");
    const ValueId x = g.addInput("x", {{600, 3}, DType::Float32});
    const ValueId bias = g.addInput("b", {{3}, DType::Float32});
    const ValueId half = g.addConstant(Tensor::scalar(0.5));
    const ValueId h = g.addNode1(kAdd, {x, bias});
    const ValueId s = g.addNode1(kSigmoid, {g.addNode1(kMul, {h, half})});
    const ValueId mask = g.addNode1(kGreater, {h, half});
    g.setOutputs({g.addNode1(kSelect, {mask, s, h}), mask});

    Graph members = g;
    members.setName("fused");
    const FusedKernel kernel(members);
    CHECK(kernel.instructionCount() == 5);
    const Tensor xs = values(DType::Float32, 1800, 3).viewAs(Shape{600, 3});
    const Tensor bs = Tensor::fromVector<float>({3}, {0.25f, -1.5f, 2.0f});
    const TensorList expected = executeGraph(g, TensorList{xs, bs});
    TensorList out{Tensor::empty({600, 3}), Tensor::empty({600, 3}, DType::Bool)};
    kernel.run(TensorList{xs, bs}, out);
    CHECK(sameBits(out[0], expected[0]));
    CHECK(sameBits(out[1], expected[1]));
}

TEST_CASE("the fused kernel refuses members it cannot run")
{
    Graph g("fused");
    const ValueId x = g.addInput("x", {{4}, DType::Int32});
    g.setOutputs({g.addNode1(kAdd, {x, x})});
    CHECK_THROWS_AS(FusedKernel(g), ValueError);
    Graph p("fused");
    const ValueId y = p.addInput("y", {{4}, DType::Float32});
    p.setOutputs({p.addNode1(kPow, {y, y})});
    CHECK_THROWS_AS(FusedKernel(p), ValueError);
    CHECK_FALSE(isFusibleOperandShape(Shape{2, 1}, Shape{2, 3}));
    CHECK(isFusibleOperandShape(Shape{1, 3}, Shape{2, 3}));
    CHECK(isFusibleOperandShape(Shape{}, Shape{2, 3}));
}

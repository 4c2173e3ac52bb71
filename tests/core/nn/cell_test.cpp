// Tests of the Cell tree, scopes and custom bprop (core/nn/cell.cpp). SPDX-License-Identifier: MIT
#include "nn/cell.h"

#include "api/grad.h"
#include "autodiff/context.h"
#include "autodiff/tape.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {

// y = x * weight, with a weight of two elements.
class Scale : public Cell {
public:
    explicit Scale(float w = 2.f) : Cell("Scale")
    {
        m_weight =
            registerParameter("weight", Parameter(Tensor::fromVector<float>({2}, {w, w}), "w"));
    }
    Value construct(const std::vector<Value>& args) override
    {
        return tensorArg(args, 0, 1) * m_weight;
    }
    Parameter m_weight;
};

class Block : public Cell {
public:
    Block() : Cell("Block")
    {
        m_first = registerChild("first", std::make_shared<Scale>(2.f));
        m_second = registerChild("second", std::make_shared<Scale>(3.f));
    }
    Value construct(const std::vector<Value>& args) override
    {
        return (*m_second)((*m_first)(args).tensor());
    }
    std::shared_ptr<Scale> m_first, m_second;
};

class Net : public Cell {
public:
    explicit Net(bool autoPrefix = true) : Cell("Net", autoPrefix)
    {
        m_block = registerChild("block", std::make_shared<Block>());
        m_bias =
            registerParameter("bias", Parameter(Tensor::fromVector<float>({2}, {1.f, 1.f}), "b"));
    }
    Value construct(const std::vector<Value>& args) override
    {
        return (*m_block)(args).tensor() + m_bias;
    }
    std::shared_ptr<Block> m_block;
    Parameter m_bias;
};

// SEMANTICS.md §5.1: construct z = x*y*y, bprop (x + y, x * y) regardless of dout.
class MulBprop : public Cell {
public:
    MulBprop() : Cell("MulBprop") {}
    Value construct(const std::vector<Value>& a) override
    {
        return a[0].tensor() * a[1].tensor() * a[1].tensor();
    }
    bool hasBprop() const override { return true; }
    Value bprop(const std::vector<Value>& a, const Value&, const Value&) override
    {
        const Tensor& x = a[0].tensor();
        const Tensor& y = a[1].tensor();
        return Value::tuple({x + y, x * y});
    }
};

// Identity forward; bprop dout * x * x, so d/dx of the first-order gradient is 2x (grad of grad).
class SquareBprop : public Cell {
public:
    SquareBprop() : Cell("SquareBprop") {}
    Value construct(const std::vector<Value>& a) override { return a[0].tensor() * 1.0; }
    bool hasBprop() const override { return true; }
    Value bprop(const std::vector<Value>& a, const Value&, const Value& dout) override
    {
        const Tensor& x = a[0].tensor();
        return Value::tuple({dout.tensor() * x * x});
    }
};

// bprop with the wrong number of gradients.
class BadBprop : public Cell {
public:
    BadBprop() : Cell("BadBprop") {}
    Value construct(const std::vector<Value>& a) override { return a[0].tensor() * a[1].tensor(); }
    bool hasBprop() const override { return true; }
    Value bprop(const std::vector<Value>& a, const Value&, const Value&) override
    {
        return Value::tuple({a[0]});
    }
};

// A bprop Cell that uses a Parameter inside construct.
class ScaledBprop : public Cell {
public:
    ScaledBprop() : Cell("ScaledBprop")
    {
        m_w = registerParameter("w", Parameter(Tensor::fromVector<float>({1}, {5.f}), "w"));
    }
    Value construct(const std::vector<Value>& a) override { return a[0].tensor() * m_w; }
    bool hasBprop() const override { return true; }
    Value bprop(const std::vector<Value>&, const Value&, const Value& dout) override
    {
        return Value::tuple({dout});
    }
    Parameter m_w;
};

std::vector<std::string> names(const std::vector<std::pair<std::string, Parameter>>& entries)
{
    std::vector<std::string> out;
    for (const auto& e : entries)
        out.push_back(e.first + "=" + e.second.name());
    return out;
}

} // namespace

TEST_CASE("parameter names follow the registration path of their cells")
{
    Net net;
    using V = std::vector<std::string>;
    CHECK(names(net.parametersAndNames())
          == V{"bias=bias", "block.first.weight=block.first.weight",
               "block.second.weight=block.second.weight"});
    SECTION("a cell without auto prefix keeps its children's names")
    {
        Net plain(false);
        CHECK(names(plain.parametersAndNames())
              == V{"bias=bias", "block.first.weight=first.weight",
                   "block.second.weight=second.weight"});
    }
    SECTION("registering a cell again under another parent renames from the new path")
    {
        class Outer : public Cell {
        public:
            explicit Outer(CellPtr inner) : Cell("Outer")
            {
                registerChild("net", std::move(inner));
            }
            Value construct(const std::vector<Value>& a) override { return (*child("net"))(a); }
        };
        auto inner = std::make_shared<Net>();
        Outer outer(inner);
        CHECK(inner->m_block->m_first->m_weight.name() == "net.block.first.weight");
        CHECK(outer.parameter("net.bias").name() == "net.bias");
    }
}

TEST_CASE("a parameter reachable twice is listed once and untrainable ones are not trainable")
{
    class Shared : public Cell {
    public:
        Shared() : Cell("Shared")
        {
            auto s = std::make_shared<Scale>();
            registerChild("a", s);
            registerChild("b", s);
            Parameter frozen(Tensor::zeros({1}), "frozen", false);
            registerParameter("frozen", frozen);
        }
        Value construct(const std::vector<Value>& a) override { return a[0]; }
    };
    Shared net;
    CHECK(net.getParameters().size() == 2);
    REQUIRE(net.trainableParams().size() == 1);
    CHECK(net.trainableParams()[0].name() == "b.weight");
    CHECK_THROWS_AS(net.parameter("nope"), ValueError);
}

TEST_CASE("op nodes are labelled with the scope path of the cells that ran them")
{
    Net net;
    Tape tape;
    {
        TapeGuard guard(tape);
        net(Tensor::fromVector<float>({2}, {1.f, 2.f}));
    }
    std::vector<std::string> labels;
    for (const auto& node : tape.nodes())
        labels.push_back(node->label());
    CHECK(labels
          == std::vector<std::string>{"Net/block/first/Mul", "Net/block/second/Mul", "Net/Add"});
    CHECK(executionContext().scope == nullptr);

    SECTION("a cell called on its own is scoped by its class name")
    {
        Tape solo;
        TapeGuard guard(solo);
        (*net.m_block->m_first)(Tensor::fromVector<float>({2}, {1.f, 2.f}));
        REQUIRE(solo.size() == 1);
        CHECK(solo.nodes()[0]->label() == "Scale/Mul");
    }
}

TEST_CASE("set_train reaches every descendant")
{
    Net net;
    CHECK_FALSE(net.training());
    net.setTrain();
    CHECK(net.m_block->m_second->training());
    net.setTrain(false);
    CHECK_FALSE(net.m_block->m_first->training());
}

TEST_CASE("the repr lists children the way MindSpore prints cells")
{
    Net net;
    CHECK(net.toString()
          == "Net<\n  (block): Block<\n    (first): Scale<>\n    (second): Scale<>\n    >\n  >");
}

TEST_CASE("construct with the wrong arguments is a TypeError naming the cell")
{
    Net net;
    Tensor x = Tensor::zeros({2});
    CHECK_THROWS_WITH(net(x, x),
                      Catch::Contains("'Scale'") && Catch::Contains("takes 1 input, got 2"));
    CHECK_THROWS_AS(net(std::vector<Value>{Value()}), TypeError);
}

TEST_CASE("a custom bprop replaces the cell's gradient (SEMANTICS 5.1 golden vector)")
{
    auto cell = std::make_shared<MulBprop>();
    auto fn = [cell](const std::vector<Value>& a) { return (*cell)(a); };
    Value g = GradOperation(true)(fn)({Tensor::scalar(1.0), Tensor::scalar(2.0)});
    REQUIRE(g.size() == 2);
    CHECK(g[0].tensor().item() == 3.0);
    CHECK(g[1].tensor().item() == 2.0);

    SECTION("the forward value is construct's and the cell is one node on the tape")
    {
        Tape tape;
        Tensor x = Tensor::scalar(1.0);
        Parameter y(Tensor::scalar(2.0), "y");
        Value out;
        {
            TapeGuard guard(tape);
            out = (*cell)(std::vector<Value>{x, y});
        }
        CHECK(out.tensor().item() == 4.0);
        REQUIRE(tape.size() == 1);
        CHECK(tape.nodes()[0]->label() == "MulBprop/CustomBprop");
    }
}

TEST_CASE("grad of grad differentiates through a custom bprop")
{
    auto cell = std::make_shared<SquareBprop>();
    auto fn = [cell](const std::vector<Value>& a) { return (*cell)(a); };
    Tensor x = Tensor::fromVector<double>({2}, {3.0, -2.0});
    Tensor first = grad(fn)({x}).tensor();
    CHECK(first.at(0) == 9.0);
    Tensor second = grad(grad(fn))({x}).tensor();
    CHECK(second.at(0) == 6.0);
    CHECK(second.at(1) == -4.0);
}

TEST_CASE("a bprop returning the wrong number of gradients is an AutodiffError naming the cell")
{
    auto cell = std::make_shared<BadBprop>();
    auto fn = [cell](const std::vector<Value>& a) { return (*cell)(a); };
    CHECK_THROWS_MATCHES(
        GradOperation(true)(fn)({Tensor::scalar(1.0), Tensor::scalar(2.0)}), AutodiffError,
        Catch::Matchers::Message("bprop of Cell 'BadBprop' returned 1 gradients, expected one "
                                 "per input (2)"));
}

TEST_CASE("parameters used inside a bprop cell get no gradient from it")
{
    auto cell = std::make_shared<ScaledBprop>();
    auto fn = [cell](const std::vector<Value>& a) { return (*cell)(a); };
    Tensor x = Tensor::fromVector<float>({1}, {2.f});
    Value g = grad(fn, std::int64_t{0}, cell->trainableParams())({x});
    CHECK(g[0].tensor().at(0) == 1.0);
    CHECK(g[1][0].tensor().at(0) == 0.0);
}

TEST_CASE("a bprop cell must be owned by a shared_ptr")
{
    MulBprop cell;
    auto fn = [&cell](const std::vector<Value>& a) { return cell(a); };
    CHECK_THROWS_AS(GradOperation(true)(fn)({Tensor::scalar(1.0), Tensor::scalar(2.0)}),
                    RuntimeError);
}

TEST_CASE("a MatMul cell with bprop (x + 1, y + 1) gets exactly those gradients (SEMANTICS 5.1)")
{
    class MatMulBprop : public Cell {
    public:
        MatMulBprop() : Cell("MatMulBprop") {}
        Value construct(const std::vector<Value>& a) override
        {
            return matmul(a[0].tensor(), a[1].tensor());
        }
        bool hasBprop() const override { return true; }
        Value bprop(const std::vector<Value>& a, const Value&, const Value&) override
        {
            return Value::tuple({a[0].tensor() + 1.0, a[1].tensor() + 1.0});
        }
    };
    auto cell = std::make_shared<MatMulBprop>();
    auto fn = [cell](const std::vector<Value>& a) { return (*cell)(a); };
    Tensor x = Tensor::fromVector<float>({2, 3}, {0.5f, 0.6f, 0.4f, 1.2f, 1.2f, 1.2f});
    Tensor y =
        Tensor::fromVector<float>({3, 3}, {0.01f, 0.3f, 1.1f, 0.1f, 0.2f, 1.3f, 2.1f, 1.2f, 3.3f});
    Value g = GradOperation(true)(fn)({x, y});
    CHECK(g[0].tensor().toDoubles() == (x + 1.0).toDoubles());
    CHECK(g[0].tensor().at(0) == Approx(1.5));
    CHECK(g[0].tensor().at(1) == Approx(1.6));
    CHECK(g[1].tensor().toDoubles() == (y + 1.0).toDoubles());
}

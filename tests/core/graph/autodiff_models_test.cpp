// Graph autodiff on whole models and on the grad API's options: an MLP and a small conv net with
// parameters, has_aux, sens, tuple outputs, if nodes and fused graphs, each against the PyNative
// grad API in float64 at 1e-9 relative; then the default pass pipeline must keep those values.
// SPDX-License-Identifier: MIT
#include "graph/autodiff.h"

#include "api/grad.h"
#include "graph/executor.h"
#include "graph/text_parser.h"
#include "graph/tracer.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "nn/models/lenet5.h"
#include "nn/wrappers/with_loss_cell.h"
#include "ops/ops.h"
#include "passes/pipeline.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

constexpr double kTolerance = 1e-9;

void checkClose(const Tensor& got, const Tensor& expected)
{
    REQUIRE(got.shape() == expected.shape());
    double worst = 0;
    for (std::int64_t i = 0; i < got.numel(); ++i)
        worst = std::max(worst, std::abs(got.at(i) - expected.at(i))
                                    / std::max(1.0, std::abs(expected.at(i))));
    CHECK(worst <= kTolerance);
}

// A model: named parameters, arguments, and a loss over them.
struct Model {
    std::vector<Parameter> params;
    TensorList args;
    std::function<Tensor(const TensorList& args, const TensorList& params)> loss;
};

Tensor dense(const Tensor& x, const Tensor& w, const Tensor& b)
{
    return biasAdd(matmul(x, w, false, true), b);
}

Model mlp()
{
    Model m;
    m.params = {Parameter(sample({16, 8}, -0.5, 0.5, 1), "fc1.weight"),
                Parameter(sample({16}, -0.1, 0.1, 2), "fc1.bias"),
                Parameter(sample({12, 16}, -0.5, 0.5, 3), "fc2.weight"),
                Parameter(sample({12}, -0.1, 0.1, 4), "fc2.bias"),
                Parameter(sample({4, 12}, -0.5, 0.5, 5), "fc3.weight"),
                Parameter(sample({4}, -0.1, 0.1, 6), "fc3.bias")};
    m.args = {sample({5, 8}, -1, 1, 7), Tensor::fromVector<std::int32_t>({5}, {0, 3, 1, 2, 3})};
    m.loss = [](const TensorList& a, const TensorList& p) {
        ScopeGuard net("MLP");
        Tensor h = relu(dense(a[0], p[0], p[1]));
        h = sigmoid(dense(h, p[2], p[3]));
        const Tensor logits = dense(h, p[4], p[5]);
        return reduceMean(sparseSoftmaxCrossEntropy(logits, a[1]));
    };
    return m;
}

Model convNet()
{
    Model m;
    m.params = {Parameter(sample({4, 1, 3, 3}, -0.5, 0.5, 1), "conv1.weight"),
                Parameter(sample({6, 4, 3, 3}, -0.5, 0.5, 2), "conv2.weight"),
                Parameter(sample({3, 24}, -0.5, 0.5, 3), "fc.weight"),
                Parameter(sample({3}, -0.1, 0.1, 4), "fc.bias")};
    m.args = {sample({2, 1, 10, 10}, -1, 1, 5), Tensor::fromVector<std::int32_t>({2}, {2, 0})};
    m.loss = [](const TensorList& a, const TensorList& p) {
        ScopeGuard net("ConvNet");
        Pool2dOptions pool;
        pool.kernel = {2, 2};
        pool.stride = {2, 2};
        Tensor h = maxPool2d(relu(conv2d(a[0], p[0])), pool);
        h = relu(conv2d(h, p[1]));
        const Tensor logits = dense(flatten(h), p[2], p[3]);
        return reduceMean(sparseSoftmaxCrossEntropy(logits, a[1]));
    };
    return m;
}

// The model's loss traced into a graph whose inputs are its arguments, then its parameters.
Graph traceModel(const Model& m)
{
    std::vector<TracedInput> inputs;
    for (std::size_t i = 0; i < m.args.size(); ++i)
        inputs.push_back({"arg" + std::to_string(i), {m.args[i].shape(), m.args[i].dtype()}});
    for (const Parameter& p : m.params)
        inputs.push_back({p.name(), {p.shape(), p.dtype()}, ValueKind::Parameter});
    return traceFunction("model", inputs, [&](const TensorList& x) {
        const TensorList args(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(m.args.size()));
        const TensorList params(x.begin() + static_cast<std::ptrdiff_t>(m.args.size()), x.end());
        return TensorList{m.loss(args, params)};
    });
}

void checkModel(const Model& m)
{
    Function f = [&](const std::vector<Value>& a) -> Value {
        TensorList args;
        for (const Value& v : a)
            args.push_back(v.tensor());
        return m.loss(args, TensorList(m.params.begin(), m.params.end()));
    };
    const Value expected =
        valueAndGrad(f, std::monostate{}, m.params)({m.args.begin(), m.args.end()});
    const Graph forward = traceModel(m);
    GradientSpec spec;
    spec.wrt.assign(forward.inputs().begin() + static_cast<std::ptrdiff_t>(m.args.size()),
                    forward.inputs().end());
    const Graph gradient = gradientGraph(forward, spec);
    TensorList inputs = m.args;
    inputs.insert(inputs.end(), m.params.begin(), m.params.end());
    const PipelineResult optimised = runPipeline(gradient, defaultPipeline());
    INFO(optimised.report());
    GraphExecutor executor(optimised.graph);
    for (const Graph* g : {&gradient, &optimised.graph}) {
        for (int run = 0; run < 2;
             ++run) { // the planned executor reuses its buffers on the second run
            const TensorList got = g == &gradient ? executeGraph(*g, inputs) : executor.run(inputs);
            REQUIRE(got.size() == 1 + m.params.size());
            checkClose(got[0], expected[0].tensor());
            for (std::size_t k = 0; k < m.params.size(); ++k)
                checkClose(got[1 + k], expected[1][k].tensor());
        }
    }
}

} // namespace

TEST_CASE("an MLP's graph gradients equal PyNative's, before and after the pass pipeline")
{
    checkModel(mlp());
}

TEST_CASE("a conv net's graph gradients equal PyNative's, before and after the pass pipeline")
{
    checkModel(convNet());
}

TEST_CASE("has_aux differentiates the first output only and passes the others through")
{
    auto fn = [](const TensorList& x) {
        return TensorList{reduceSum(mul(sin(x[0]), x[0])), exp(x[0])};
    };
    const Tensor x = sample({3}, -1, 1, 3);
    Function f = [&](const std::vector<Value>& a) -> Value {
        const TensorList out = fn({a[0].tensor()});
        return Value::tuple({out[0], out[1]});
    };
    const Value expected = grad(f, std::int64_t{0}, {}, true)({x});
    const TracedInput in[] = {{"x", {{3}, DType::Float64}}};
    const Graph forward = traceFunction("f", in, fn);
    GradientSpec spec{{forward.inputs()[0]}, 1, false};
    const TensorList got = executeGraph(gradientGraph(forward, spec), TensorList{x});
    REQUIRE(got.size() == 3);
    checkClose(got[2], expected[0].tensor());
    checkClose(got[1], expected[1][0].tensor());
}

TEST_CASE("sens inputs seed the outputs instead of ones, and tuple outputs are all differentiated")
{
    auto fn = [](const TensorList& x) { return TensorList{mul(x[0], x[1]), tanh(x[0])}; };
    const Tensor a = sample({2, 3}, -1, 1, 1), b = sample({2, 3}, -1, 1, 2);
    const Tensor s0 = sample({2, 3}, 0.5, 1.5, 3), s1 = sample({2, 3}, 0.5, 1.5, 4);
    Function f = [&](const std::vector<Value>& v) -> Value {
        const TensorList out = fn({v[0].tensor(), v[1].tensor()});
        return Value::tuple({out[0], out[1]});
    };
    const TracedInput in[] = {{"a", {{2, 3}, DType::Float64}}, {"b", {{2, 3}, DType::Float64}}};
    const Graph forward = traceFunction("f", in, fn);
    const std::vector<ValueId> wrt{forward.inputs()[0], forward.inputs()[1]};

    const Value withSens =
        grad(f, std::vector<std::int64_t>{0, 1}, {}, false, true)({a, b, Value::tuple({s0, s1})});
    const TensorList got =
        executeGraph(gradientGraph(forward, {wrt, 2, true}), TensorList{a, b, s0, s1});
    checkClose(got[2], withSens[0].tensor());
    checkClose(got[3], withSens[1].tensor());

    const Value withOnes = grad(f, std::vector<std::int64_t>{0, 1})({a, b});
    const TensorList ones = executeGraph(gradientGraph(forward, {wrt}), TensorList{a, b});
    checkClose(ones[2], withOnes[0].tensor());
    checkClose(ones[3], withOnes[1].tensor());
}

TEST_CASE("an if node is differentiated through the branch its condition takes")
{
    const Graph forward = parseGraph("graph @f(%c : bool[], %x : f64[3], %w : f64[3] param) {\n"
                                     "  %0 : f64[3] = If(%c, %x, %w)\n"
                                     "    then(%a : f64[3], %b : f64[3]) {\n"
                                     "      %1 : f64[3] = Mul(%a, %b)\n"
                                     "      %2 : f64[3] = Sin(%1)\n"
                                     "      return %2\n"
                                     "    }\n"
                                     "    else(%a : f64[3], %b : f64[3]) {\n"
                                     "      %3 : f64[3] = Mul(%a, %a)\n"
                                     "      %4 : f64[3] = Mul(%3, %b)\n"
                                     "      return %4\n"
                                     "    }\n"
                                     "  %5 : f64[] = ReduceSum(%0)\n"
                                     "  return %5\n"
                                     "}\n");
    const Graph gradient = gradientGraph(forward, {{forward.inputs()[1], forward.inputs()[2]}});
    const Tensor x = sample({3}, -1, 1, 1), w = sample({3}, -1, 1, 2);
    for (bool c : {true, false}) {
        Function f = [c](const std::vector<Value>& v) -> Value {
            const Tensor &a = v[0].tensor(), &b = v[1].tensor();
            return reduceSum(c ? sin(mul(a, b)) : mul(mul(a, a), b));
        };
        const Value expected = grad(f, std::vector<std::int64_t>{0, 1})({x, w});
        const TensorList got =
            executeGraph(gradient, TensorList{Tensor::scalar(c, DType::Bool), x, w});
        checkClose(got[1], expected[0].tensor());
        checkClose(got[2], expected[1].tensor());
    }
}

TEST_CASE("a fused graph differentiates like the unfused one")
{
    const Model m = mlp();
    const Graph forward = traceModel(m);
    const Graph fused = kElementwiseFusionPass.run(kDcePass.run(forward).graph).graph;
    GradientSpec spec;
    spec.wrt.assign(forward.inputs().begin() + 2, forward.inputs().end());
    TensorList inputs = m.args;
    inputs.insert(inputs.end(), m.params.begin(), m.params.end());
    const TensorList expected = executeGraph(gradientGraph(forward, spec), inputs);
    const TensorList got = executeGraph(gradientGraph(fused, spec), inputs);
    for (std::size_t k = 0; k < got.size(); ++k)
        checkClose(got[k], expected[k]);
}

TEST_CASE(
    "LeNet5 as a Cell with its loss, traced with its parameters, differentiates like PyNative")
{
    auto net = std::make_shared<WithLossCell>(
        std::make_shared<LeNet5>(), std::make_shared<SoftmaxCrossEntropyWithLogits>(true, "mean"));
    const ParameterTuple params = net->trainableParams();
    for (std::size_t i = 0; i < params.size(); ++i) // float64 copies of the initial weights
        Parameter(params[i]).setData(cast(params[i], DType::Float64));
    const Tensor x = sample({2, 1, 32, 32}, -1, 1, 3);
    const Tensor labels = Tensor::fromVector<std::int32_t>({2}, {7, 1});
    const Value expected = valueAndGrad(net->asFunction(), std::monostate{}, params)({x, labels});

    const TracedInput inputs[] = {{"x", {x.shape(), x.dtype()}}, {"label", {{2}, DType::Int32}}};
    const Graph forward = traceFunction("lenet", inputs, params, [&](const TensorList& a) {
        return TensorList{(*net)({a[0], a[1]}).tensor()};
    });
    CHECK(forward.value(forward.inputs()[2]).name == "conv1.weight");
    CHECK(forward.node(0).label() == "WithLossCell/_backbone/conv1/Conv2D");
    GradientSpec spec;
    spec.wrt.assign(forward.inputs().begin() + 2, forward.inputs().end());
    TensorList args{x, labels};
    args.insert(args.end(), params.begin(), params.end());
    const TensorList got =
        GraphExecutor(runPipeline(gradientGraph(forward, spec), defaultPipeline()).graph).run(args);
    checkClose(got[0], expected[0].tensor());
    for (std::size_t k = 0; k < params.size(); ++k)
        checkClose(got[1 + k], expected[1][k].tensor());
}

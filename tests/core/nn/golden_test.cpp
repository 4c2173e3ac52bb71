// Golden losses and gradients from PyTorch (tests/data/golden, made by golden.py) reproduced with our
// Cells: the closed-form recipe rebuilds the weights bit for bit, then losses, gradients, has_aux
// and SGD trajectories are compared in float32 and float64. SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "io/json.h"
#include "nn/layers/dense.h"
#include "nn/layers/relu.h"
#include "nn/losses/mse_loss.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "nn/models/lenet5.h"
#include "nn/wrappers/train_one_step_cell.h"
#include "nn/wrappers/with_loss_cell.h"
#include "ops/ops.h"
#include "optim/sgd.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

using namespace gradstep;

namespace {

const char* const kModels[] = {"linear", "mlp", "lenet5", "has_aux_demo"};

// ----------------------------------------------------------------------------- the recipe
// golden.py's recipe, version 1: double arithmetic left to right, rounded once to float32.
Tensor recipeWeight(const Shape& shape, int layer, double fanIn, int seed)
{
    std::vector<float> w(static_cast<std::size_t>(shape.numel()));
    const double s = 1.0 / std::sqrt(fanIn);
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = static_cast<float>(
            std::sin(0.37 * static_cast<double>(i) + 0.11 * layer + 0.5 * seed) * s);
    return Tensor::fromVector(shape, w);
}

Tensor recipeBias(const Shape& shape, int layer, int seed)
{
    std::vector<float> b(static_cast<std::size_t>(shape.numel()));
    for (std::size_t i = 0; i < b.size(); ++i)
        b[i] = static_cast<float>(
            0.1 * std::cos(0.37 * static_cast<double>(i) + 0.11 * layer + 0.5 * seed));
    return Tensor::fromVector(shape, b);
}

Tensor recipeInput(const Shape& shape, int seed)
{
    std::vector<float> x(static_cast<std::size_t>(shape.numel()));
    for (std::size_t i = 0; i < x.size(); ++i)
        x[i] = static_cast<float>(std::cos(0.13 * static_cast<double>(i) + 0.5 * seed));
    return Tensor::fromVector(shape, x);
}

// FNV-1a 64 over the float32 values' little-endian bytes, as golden.py prints it.
std::string fnv1a64(const Tensor& t)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    const auto* bytes = static_cast<const unsigned char*>(t.rawData());
    for (std::size_t k = 0; k < t.nbytes(); ++k) {
        h ^= bytes[k];
        h *= 0x100000001b3ULL;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

Shape shapeOf(const Json& dims)
{
    Shape shape;
    for (const Json& d : dims.asArray())
        shape.push_back(d.asInt());
    return shape;
}

// ----------------------------------------------------------------------------- the models
// linear, mlp and has_aux_demo as Cells; parameter names come from the attribute names.
class DenseStack : public Cell {
public:
    DenseStack(const std::vector<std::string>& names, const std::vector<std::int64_t>& widths)
        : Cell("DenseStack")
    {
        for (std::size_t i = 0; i < names.size(); ++i)
            m_layers.push_back(
                registerChild(names[i], std::make_shared<Dense>(widths[i], widths[i + 1])));
        m_relu = registerChild("relu", std::make_shared<ReLU>());
    }
    Value construct(const std::vector<Value>& args) override
    {
        Tensor h = tensorArg(args, 0, 1);
        for (std::size_t i = 0; i < m_layers.size(); ++i) {
            h = (*m_layers[i])(h).tensor();
            if (i + 1 < m_layers.size())
                h = (*m_relu)(h).tensor();
        }
        return h;
    }

private:
    std::vector<CellPtr> m_layers;
    CellPtr m_relu;
};

CellPtr makeModel(const std::string& model)
{
    if (model == "linear")
        return std::make_shared<DenseStack>(std::vector<std::string>{"fc"},
                                            std::vector<std::int64_t>{20, 10});
    if (model == "mlp")
        return std::make_shared<DenseStack>(std::vector<std::string>{"fc1", "fc2", "fc3"},
                                            std::vector<std::int64_t>{784, 256, 128, 10});
    if (model == "has_aux_demo")
        return std::make_shared<DenseStack>(std::vector<std::string>{"fc1", "fc2"},
                                            std::vector<std::int64_t>{20, 16, 10});
    return std::make_shared<LeNet5>();
}

struct Setup {
    Json doc;
    CellPtr net;
    Tensor x;
    Tensor labels;
    bool recipeMatches = true; ///< every rebuilt tensor hashed as in the JSON
};

// Rebuilds the model with the recipe's weights in `dtype` (float64 runs convert the float32
// recipe values exactly, as golden.py does).
Setup build(const std::string& model, DType dtype)
{
    Setup s;
    s.doc = Json::parseFile(GRADSTEP_GOLDEN_DIR "/golden_" + model + ".json");
    const Json& doc = s.doc;
    const int seed = static_cast<int>(doc["seed"].asInt());
    s.net = makeModel(model);
    const ParameterTuple params = s.net->trainableParams();
    REQUIRE(params.size() == doc["params"].size());
    for (std::size_t i = 0; i < params.size(); ++i) {
        const Json& entry = doc["params"][i];
        const Shape shape = shapeOf(entry["shape"]);
        const int layer = static_cast<int>(entry["layer"].asInt());
        Tensor value = entry["fan_in"].isNull()
            ? recipeBias(shape, layer, seed)
            : recipeWeight(shape, layer, entry["fan_in"].asNumber(), seed);
        CHECK(params[i].name() == entry["name"].asString());
        s.recipeMatches =
            s.recipeMatches && fnv1a64(value) == entry["value_check"]["fnv1a64"].asString();
        Parameter(params[i]).setData(dtype == DType::Float32 ? value : cast(value, dtype));
    }
    s.x = recipeInput(shapeOf(doc["input_shape"]), seed);
    s.recipeMatches = s.recipeMatches && fnv1a64(s.x) == doc["input_check"]["fnv1a64"].asString();
    if (dtype != DType::Float32)
        s.x = cast(s.x, dtype);
    std::vector<std::int32_t> labels;
    for (std::int64_t n = 0; n < doc["batch"].asInt(); ++n)
        labels.push_back(static_cast<std::int32_t>((n + seed) % 10));
    s.labels = Tensor::fromVector(Shape{static_cast<std::int64_t>(labels.size())}, labels);
    for (std::size_t n = 0; n < labels.size(); ++n)
        s.recipeMatches = s.recipeMatches && doc["labels"][n].asInt() == labels[n];
    return s;
}

// ----------------------------------------------------------------------------- cases
// linear has a softmax cross-entropy and an MSE-vs-one-hot case; the others cross-entropy only.
std::vector<std::string> lossKinds(const std::string& model)
{
    if (model == "linear")
        return {"ce", "mse"};
    return {"ce"};
}

const Json& caseSection(const Json& doc, const std::string& kind)
{
    if (doc["model"].asString() == "linear")
        return doc["cases"][kind == "ce" ? "softmax_ce" : "mse_onehot"];
    return doc;
}

CellPtr makeLoss(const std::string& kind)
{
    if (kind == "ce")
        return std::make_shared<SoftmaxCrossEntropyWithLogits>(true, "mean");
    return std::make_shared<MSELoss>();
}

// fn(x) -> (loss, logits), the function a MindSpore user differentiates.
Function lossAndLogits(const Setup& s, const std::string& kind)
{
    CellPtr net = s.net, loss = makeLoss(kind);
    Tensor labels = s.labels;
    return [net, loss, labels, kind](const std::vector<Value>& args) -> Value {
        Tensor logits = (*net)(args[0].tensor()).tensor();
        Tensor target = kind == "ce" ? labels : oneHot(labels, 10, 1.0, 0.0, -1, logits.dtype());
        return Value::tuple({(*loss)(logits, target), logits});
    };
}

Function lossOnly(const Setup& s, const std::string& kind)
{
    Function both = lossAndLogits(s, kind);
    return [both](const std::vector<Value>& args) -> Value { return both(args)[0]; };
}

// l2, sum and first5 of t against a JSON stats entry, within rtol * (expected l2).
void checkStats(const Tensor& t, const Json& expected, double rtol)
{
    double l2 = 0.0, sum = 0.0;
    for (std::int64_t i = 0; i < t.numel(); ++i) {
        l2 += t.at(i) * t.at(i);
        sum += t.at(i);
    }
    l2 = std::sqrt(l2);
    const double tol = rtol * std::max(expected["l2"].asNumber(), 1e-30);
    CHECK(l2 == Approx(expected["l2"].asNumber()).margin(tol).epsilon(0));
    CHECK(sum == Approx(expected["sum"].asNumber()).margin(tol).epsilon(0));
    for (std::size_t i = 0; i < expected["first5"].size(); ++i)
        CHECK(t.at(static_cast<std::int64_t>(i))
              == Approx(expected["first5"][i].asNumber()).margin(tol).epsilon(0));
}

// Input gradient and parameter gradients (in order) against a golden gradient section.
void checkGradients(const Tensor& gx, const Value& gw, const Json& section, DType dtype)
{
    const bool f64 = dtype == DType::Float64;
    const double rtol = f64 ? 1e-9 : 1e-4;
    {
        INFO("input gradient");
        CHECK(gx.shape() == shapeOf(section["input"]["shape"]));
        checkStats(gx, f64 ? section["input"]["f64"] : section["input"], rtol);
    }
    REQUIRE(gw.size() == section["params"].size());
    for (std::size_t i = 0; i < gw.size(); ++i) {
        const Json& entry = section["params"][i];
        INFO("gradient of " << entry["name"].asString());
        CHECK(gw[i].tensor().shape() == shapeOf(entry["shape"]));
        checkStats(gw[i].tensor(), f64 ? entry["f64"] : entry, rtol);
    }
}

const char* dtypeLabel(DType dtype) { return dtype == DType::Float64 ? "float64" : "float32"; }

} // namespace

TEST_CASE("golden: the recipe rebuilds every weight, input and label bit for bit")
{
    for (const char* model : kModels) {
        INFO("model " << model);
        Setup s = build(model, DType::Float32);
        CHECK(s.recipeMatches);
    }
}

TEST_CASE("golden: losses and gradients match PyTorch in float32 and in float64")
{
    for (const char* model : kModels)
        for (DType dtype : {DType::Float32, DType::Float64}) {
            const Setup s = build(model, dtype);
            for (const std::string& kind : lossKinds(model)) {
                INFO("model " << model << ", loss " << kind << ", " << dtypeLabel(dtype));
                const Json& section = caseSection(s.doc, kind);
                Value r = valueAndGrad(lossOnly(s, kind), std::int64_t{0},
                                       s.net->trainableParams())({s.x});
                const Json& forward = section["forward"];
                const double loss = r[0].tensor().item();
                if (dtype == DType::Float64)
                    CHECK(loss == Approx(forward["loss_f64"].asNumber()).epsilon(1e-10));
                else
                    CHECK(loss == Approx(forward["loss"].asNumber()).epsilon(1e-5));
                checkGradients(r[1][0].tensor(), r[1][1], section["grad_loss"], dtype);
            }
        }
}

TEST_CASE("golden: has_aux differentiates only the loss, without it every output is seeded")
{
    for (const char* model : kModels)
        for (DType dtype : {DType::Float32, DType::Float64}) {
            const Setup s = build(model, dtype);
            for (const std::string& kind : lossKinds(model)) {
                INFO("model " << model << ", loss " << kind << ", " << dtypeLabel(dtype));
                const Json& section = caseSection(s.doc, kind);
                const Function fn = lossAndLogits(s, kind);
                const ParameterTuple weights = s.net->trainableParams();
                Value withAux = grad(fn, std::int64_t{0}, weights, true)({s.x});
                REQUIRE(withAux.size() == 2);
                REQUIRE(withAux[1].size() == 1);
                const Tensor aux = withAux[1][0].tensor();
                const Json& forward = section["forward"];
                const Json& first5 = dtype == DType::Float64 ? forward["logits_f64_first5"]
                                                             : forward["logits_first5"];
                for (std::size_t i = 0; i < 5; ++i)
                    CHECK(aux.at(static_cast<std::int64_t>(i))
                          == Approx(first5[i].asNumber()).margin(1e-5));
                checkGradients(withAux[0][0].tensor(), withAux[0][1], section["grad_loss"], dtype);
                Value without = grad(fn, std::int64_t{0}, weights)({s.x});
                checkGradients(without[0].tensor(), without[1],
                               section["grad_tuple_without_has_aux"], dtype);
            }
        }
}

TEST_CASE("golden: losses after 0 to 3 plain SGD updates match")
{
    for (const char* model : kModels)
        for (const std::string& kind : lossKinds(model)) {
            INFO("model " << model << ", loss " << kind);
            const Setup s = build(model, DType::Float32);
            const Json& sgd = caseSection(s.doc, kind)["sgd"];
            CHECK(sgd["lr"].asNumber() == 0.01);
            auto optimizer = std::make_shared<SGD>(s.net->trainableParams(), 0.01);
            auto loss = std::make_shared<WithLossCell>(s.net, makeLoss(kind));
            TrainOneStepCell train(loss, optimizer);
            const Tensor target = kind == "ce" ? s.labels : oneHot(s.labels, 10);
            for (std::size_t k = 0; k < 4; ++k) {
                INFO("after " << k << " updates");
                const double value = train(s.x, target).tensor().item();
                CHECK(value == Approx(sgd["losses"][k].asNumber()).epsilon(1e-5));
            }
        }
}

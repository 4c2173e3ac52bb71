// Training steps of the two anchor models of ../shared/bench/torch_anchor.py, float32, one thread:
// MLP 784-256-128-10 (batch 64) and LeNet5 (batch 32), each forward + loss + backward + SGD, plus
// the forward and backward of each LeNet5 layer on its own. SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"
#include "tests/bench/timing.h"

#include <cmath>
#include <string>

using namespace gradstep;
using namespace gradstep::bench;

namespace {

Tensor wave(const Shape& shape, double scale, double phase)
{
    Tensor t = Tensor::empty(shape);
    float* p = t.data<float>();
    for (std::int64_t i = 0; i < t.numel(); ++i)
        p[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i) + phase) * scale);
    return t;
}

Parameter param(const Shape& shape, std::int64_t fanIn, int layer)
{
    return Parameter(wave(shape, 1.0 / std::sqrt(static_cast<double>(fanIn)), 0.11 * layer),
                     "p" + std::to_string(layer));
}

Tensor labelsFor(std::int64_t n)
{
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<std::int32_t>(i % 10);
    return Tensor::fromVector<std::int32_t>(Shape{n}, v);
}

Tensor dense(const Tensor& x, const Tensor& w, const Tensor& b) { return biasAdd(matmul(x, w, false, true), b); }

Tensor meanLoss(const Tensor& logits, const Tensor& labels)
{
    return reduceSum(sparseSoftmaxCrossEntropy(logits, labels)) * (1.0 / static_cast<double>(logits.shape()[0]));
}

// One step: loss, gradients for every parameter, and p -= lr * g in place.
void trainStep(const Function& model, std::vector<Parameter>& params, const Tensor& x)
{
    GradRequest request;
    request.weights = params;
    const GradResult r = differentiate(model, {Value(x)}, request);
    for (std::size_t i = 0; i < params.size(); ++i) {
        float* p = params[i].data<float>();
        const float* g = r.weightGrads[i].data<float>();
        for (std::int64_t j = 0, n = params[i].numel(); j < n; ++j)
            p[j] -= 0.01f * g[j];
    }
}

void benchMlp()
{
    std::vector<Parameter> p{param({256, 784}, 784, 0), param({256}, 784, 1), param({128, 256}, 256, 2),
                             param({128}, 256, 3),      param({10, 128}, 128, 4), param({10}, 128, 5)};
    const Tensor labels = labelsFor(64);
    const Function model = [&](const std::vector<Value>& a) -> Value {
        Tensor h = relu(dense(a[0].tensor(), p[0], p[1]));
        h = relu(dense(h, p[2], p[3]));
        return meanLoss(dense(h, p[4], p[5]), labels);
    };
    const Tensor x = wave({64, 784}, 1.0, 0.0);
    report("MLP 784-256-128-10 b64 train step", measure([&] { trainStep(model, p, x); }, 5), "us");
}

Pool2dOptions pool2() { return Pool2dOptions{{2, 2}, {2, 2}, "valid"}; }

// The 2x2 pooling kernels of LeNet5's step on a ReLU output (half zeros, so ties are common).
void benchMaxPool(const Tensor& input, const std::string& shape)
{
    const Tensor x = relu(input);
    const Tensor dy = maxPool2d(input, pool2()) * 0.5;
    const Tensor g = input * 0.25;
    Tensor sink;
    const auto line = [&](const char* what) { return "  " + std::string(what) + " of relu " + shape; };
    report(line("maxpool 2/2").c_str(), measure([&] { sink = maxPool2d(x, pool2()); }, 5));
    report(line("maxpool gradient").c_str(), measure([&] { sink = maxPoolGrad(x, dy, pool2()); }, 5));
    report(line("maxpool relu gradient").c_str(), measure([&] { sink = maxPoolReluGrad(x, dy, pool2()); }, 5));
    report(line("maxpool gradgrad").c_str(), measure([&] { sink = maxPoolGradGrad(x, g, pool2()); }, 5));
}

void benchLenet()
{
    std::vector<Parameter> p{param({6, 1, 5, 5}, 25, 0), param({16, 6, 5, 5}, 150, 1), param({120, 400}, 400, 2),
                             param({120}, 400, 3),       param({84, 120}, 120, 4),     param({84}, 120, 5),
                             param({10, 84}, 84, 6),     param({10}, 84, 7)};
    const Tensor labels = labelsFor(32);
    const Function model = [&](const std::vector<Value>& a) -> Value {
        Tensor h = maxPool2d(relu(conv2d(a[0].tensor(), p[0])), pool2());
        h = maxPool2d(relu(conv2d(h, p[1])), pool2());
        h = reshape(h, {32, 400});
        h = relu(dense(h, p[2], p[3]));
        h = relu(dense(h, p[4], p[5]));
        return meanLoss(dense(h, p[6], p[7]), labels);
    };
    const Tensor x = wave({32, 1, 32, 32}, 1.0, 0.5);
    report("LeNet5 b32 train step", measure([&] { trainStep(model, p, x); }, 2), "us");

    const Tensor h1 = wave({32, 6, 14, 14}, 1.0, 0.2);
    const Tensor dy1 = wave({32, 6, 28, 28}, 1.0, 0.3);
    const Tensor dy2 = wave({32, 16, 10, 10}, 1.0, 0.4);
    Tensor sink;
    report("  conv1 forward", measure([&] { sink = conv2d(x, p[0].detach()); }, 5));
    report("  conv1 filter gradient", measure([&] { sink = conv2dBackpropFilter(dy1, x, {6, 1, 5, 5}); }, 5));
    report("  conv2 forward", measure([&] { sink = conv2d(h1, p[1].detach()); }, 5));
    report("  conv2 filter gradient", measure([&] { sink = conv2dBackpropFilter(dy2, h1, {16, 6, 5, 5}); }, 5));
    report("  conv2 input gradient", measure([&] { sink = conv2dBackpropInput(dy2, p[1].detach(), {32, 6, 14, 14}); }, 5));
    report("  maxpool 2/2 of [32, 6, 28, 28]", measure([&] { sink = maxPool2d(dy1, pool2()); }, 5));
    const Tensor pooled = wave({32, 6, 14, 14}, 1.0, 0.7);
    report("  maxpool gradient of [32, 6, 28, 28]", measure([&] { sink = maxPoolGrad(dy1, pooled, pool2()); }, 5));
    benchMaxPool(dy1, "[32, 6, 28, 28]");
    benchMaxPool(dy2, "[32, 16, 10, 10]");
    benchMaxPool(cast(dy1, DType::Float64), "[32, 6, 28, 28] f64");
}

} // namespace

int main()
{
    benchMlp();
    benchLenet();
}

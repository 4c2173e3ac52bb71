// `gradstep demo`: the headless main job until script loading lands: LeNet5 (MindSpore's layout)
// trained on the shipped handwritten digits with value_and_grad and Momentum, printing per-step
// loss and per-parameter gradient norms, then the test accuracy. SPDX-License-Identifier: MIT
#include "app/demo.h"

#include "api/grad.h"
#include "app/install_layout.h"
#include "data/idx.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "nn/models/lenet5.h"
#include "ops/ops.h"
#include "optim/momentum.h"
#include "random/generator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace gradstep {

namespace {

struct DemoOptions {
    int steps = 400;
    int batch = 32;
    int every = 25;
    double learningRate = 0.05;
    std::uint64_t seed = 1;
    std::string dataDir = (app::samplesDirectory() / "data").string();
};

const char* kUsage =
    "usage: gradstep demo [--steps N] [--batch B] [--lr LR] [--seed S] [--every K] [--data DIR]\n"
    "Trains LeNet5 on the handwritten digits in DIR (IDX files, default: the shipped samples/data)\n"
    "with Momentum(lr, 0.9), printing the loss and each parameter's gradient norm every K steps and\n"
    "the test accuracy at the end. Defaults: --steps 400 --batch 32 --lr 0.05 --seed 1 --every 25.\n";

bool parseOptions(int argc, char** argv, DemoOptions& o)
{
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw ValueError("option " + arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--steps")
            o.steps = std::stoi(value());
        else if (arg == "--batch")
            o.batch = std::stoi(value());
        else if (arg == "--every")
            o.every = std::max(1, std::stoi(value()));
        else if (arg == "--lr")
            o.learningRate = std::stod(value());
        else if (arg == "--seed")
            o.seed = std::stoull(value());
        else if (arg == "--data")
            o.dataDir = value();
        else if (arg == "--help" || arg == "-h")
            return false;
        else
            throw ValueError("unknown option " + arg);
    }
    if (o.steps < 1 || o.batch < 1)
        throw ValueError("--steps and --batch must be at least 1");
    return true;
}

// Indices of one epoch in a seeded random order (Fisher-Yates with our generator).
std::vector<std::int32_t> shuffled(std::int64_t n, Generator& rng)
{
    std::vector<std::int32_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[static_cast<std::size_t>(rng.next() % i)]);
    return order;
}

double accuracy(LeNet5& net, const Tensor& images, const Tensor& labels)
{
    net.setTrain(false);
    Tensor predicted = argmax(net(images).tensor(), -1);
    std::int64_t right = 0;
    for (std::int64_t i = 0; i < labels.numel(); ++i)
        right += predicted.at(i) == labels.at(i);
    return static_cast<double>(right) / static_cast<double>(labels.numel());
}

void printHeader(const ParameterTuple& params)
{
    std::printf("%6s  %10s  %10s", "step", "loss", "mean loss");
    for (const Parameter& p : params)
        std::printf("  %14s", p.name().c_str());
    std::printf("\n");
}

} // namespace

int runDemo(int argc, char** argv)
{
    DemoOptions o;
    try {
        if (!parseOptions(argc, argv, o)) {
            std::fputs(kUsage, stdout);
            return 0;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gradstep demo: %s\n%s", e.what(), kUsage);
        return 2;
    }
    const Tensor trainX = readIdxImages(o.dataDir + "/digits-train-images-idx3-ubyte");
    const Tensor trainY = readIdxLabels(o.dataDir + "/digits-train-labels-idx1-ubyte");
    const Tensor testX = readIdxImages(o.dataDir + "/digits-test-images-idx3-ubyte");
    const Tensor testY = readIdxLabels(o.dataDir + "/digits-test-labels-idx1-ubyte");

    setSeed(o.seed);
    auto net = std::make_shared<LeNet5>();
    auto lossFn = std::make_shared<SoftmaxCrossEntropyWithLogits>(true, "mean");
    const ParameterTuple params = net->trainableParams();
    Momentum optimizer(params, o.learningRate, 0.9);
    Function forward = [&](const std::vector<Value>& a) -> Value {
        return (*lossFn)(std::vector<Value>{(*net)(std::vector<Value>{a[0]}), a[1]});
    };
    GradFunction gradFn = valueAndGrad(forward, GradPosition{}, params);

    std::printf("LeNet5 on %lld handwritten digits (%lld for testing), batch %d, Momentum(lr=%g, 0.9), seed %llu\n"
                "gradient norms (L2) per parameter:\n",
                static_cast<long long>(trainY.numel()), static_cast<long long>(testY.numel()), o.batch,
                o.learningRate, static_cast<unsigned long long>(o.seed));
    printHeader(params);
    Generator rng(o.seed);
    std::vector<std::int32_t> order;
    std::size_t cursor = 0;
    const auto start = std::chrono::steady_clock::now();
    double firstLoss = 0, lastLoss = 0, windowSum = 0;
    int windowCount = 0;
    for (int step = 1; step <= o.steps; ++step) {
        std::vector<std::int32_t> pick;
        for (int b = 0; b < o.batch; ++b) {
            if (cursor >= order.size()) {
                order = shuffled(trainY.numel(), rng);
                cursor = 0;
            }
            pick.push_back(order[cursor++]);
        }
        const Tensor index = Tensor::fromVector<std::int32_t>(Shape{o.batch}, pick);
        net->setTrain(true);
        Value out = gradFn({gather(trainX, index, 0), gather(trainY, index, 0)});
        const Tensor loss = out[0].tensor();
        const TensorList grads = out[1].leaves();
        optimizer(grads);
        lastLoss = loss.item();
        if (step == 1)
            firstLoss = lastLoss;
        windowSum += lastLoss;
        ++windowCount;
        if (step == 1 || step % o.every == 0 || step == o.steps) {
            // The batch loss is noisy; the mean since the last printed row shows the trend.
            std::printf("%6d  %10.5f  %10.5f", step, lastLoss, windowSum / windowCount);
            windowSum = 0;
            windowCount = 0;
            for (const Tensor& g : grads)
                std::printf("  %14.6g", norm(g).item());
            std::printf("\n");
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("loss %.5f -> %.5f in %d steps (%.2f s, %.2f ms per step)\n", firstLoss, lastLoss, o.steps, seconds,
                1e3 * seconds / o.steps);
    std::printf("test accuracy: %.1f %% of %lld digits\n", 100.0 * accuracy(*net, testX, testY),
                static_cast<long long>(testY.numel()));
    return 0;
}

} // namespace gradstep

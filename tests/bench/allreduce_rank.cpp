// One rank of the all-reduce benchmark (allreduce_bench.sh starts 2 under mpirun): the gradient
// all-reduce of a data-parallel LeNet5 step, i.e. DistributedGradReducer's work on LeNet5's 10
// gradients (61,706 floats) through the registry's AllReduce op and core/dist, as a step runs it.
// Every rank runs the same fixed number of steps (a collective needs all of them); rank 0 prints
// the median and mean per step. Target: under 1 ms per step with 2 ranks on 2 cores.
// SPDX-License-Identifier: MIT
#include "dist/communicator.h"
#include "nn/wrappers/grad_reducer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

using namespace gradstep;

int main()
{
    dist::initialize();
    const std::vector<Shape> shapes{{6, 1, 5, 5}, {6},  {16, 6, 5, 5}, {16}, {120, 400},
                                    {120},        {84, 120}, {84},      {10, 84}, {10}};
    TensorList gradients;
    std::int64_t floats = 0;
    for (const Shape& shape : shapes) {
        gradients.push_back(Tensor::full(shape, 0.001 * static_cast<double>(dist::rank("hccl_world_group") + 1)));
        floats += gradients.back().numel();
    }
    const GradientReduction mean{true, dist::size("hccl_world_group"), "hccl_world_group"};
    constexpr int kWarmup = 50, kSteps = 1000;
    for (int i = 0; i < kWarmup; ++i)
        reduceGradients(gradients, mean);
    std::vector<double> microseconds;
    for (int i = 0; i < kSteps; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const TensorList reduced = reduceGradients(gradients, mean);
        microseconds.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    // The mean of the ranks' 0.001 * (r + 1): a wrong reduction is not a benchmark.
    const TensorList check = reduceGradients(gradients, mean);
    const int size = dist::size("hccl_world_group");
    const double expected = 0.001 * (size + 1) / 2.0;
    const bool correct = std::abs(check.front().at(0) - expected) < 1e-7;
    if (dist::rank("hccl_world_group") == 0) {
        std::sort(microseconds.begin(), microseconds.end());
        const double average = std::accumulate(microseconds.begin(), microseconds.end(), 0.0) / kSteps;
        std::printf("all-reduce of LeNet5's gradients (%lld floats in %zu tensors, mean over %d ranks): "
                    "median %.3f ms, mean %.3f ms, min %.3f ms per step (target < 1 ms)%s\n",
                    static_cast<long long>(floats), gradients.size(), size, microseconds[kSteps / 2] / 1000.0,
                    average / 1000.0, microseconds.front() / 1000.0, correct ? "" : "  WRONG VALUES");
    }
    dist::finalize();
    return correct ? 0 : 1;
}

// Central differences of a gradient call's objective. SPDX-License-Identifier: MIT
#include "api/finite_differences.h"

#include "autodiff/context.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gradstep {

std::vector<std::int64_t> sampleElements(const Tensor& analytic, std::size_t maxElements)
{
    const auto count = static_cast<std::size_t>(analytic.numel());
    std::vector<std::int64_t> all(count);
    std::iota(all.begin(), all.end(), 0);
    if (count <= maxElements)
        return all;
    const std::vector<double> g = analytic.toDoubles();
    const std::size_t largest = maxElements / 3;
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(largest), all.end(),
                      [&](std::int64_t a, std::int64_t b) {
                          return std::fabs(g[static_cast<std::size_t>(a)]) > std::fabs(g[static_cast<std::size_t>(b)]);
                      });
    std::vector<std::int64_t> chosen(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(largest));
    const std::size_t spread = maxElements - largest;
    for (std::size_t k = 0; k < spread; ++k)
        chosen.push_back(static_cast<std::int64_t>((k * count + count / 2) / spread));
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    return chosen;
}

namespace {

/// A float64 copy of `t` with element `index` moved by `delta`.
Tensor shifted(const Tensor& t, std::int64_t index, double delta)
{
    std::vector<double> values = t.toDoubles();
    values[static_cast<std::size_t>(index)] += delta;
    return Tensor::fromDoubles(t.shape(), values, DType::Float64);
}

/// Gives a Parameter other values (and dtype) in place, for every holder of it, until destroyed.
class WeightSwap {
public:
    WeightSwap(const Parameter& weight, const Tensor& value)
        : m_impl(weight.impl()), m_storage(m_impl->storage), m_dtype(m_impl->dtype)
    {
        m_impl->storage = value.impl()->storage;
        m_impl->dtype = value.dtype();
    }
    ~WeightSwap()
    {
        m_impl->storage = m_storage;
        m_impl->dtype = m_dtype;
    }
    WeightSwap(const WeightSwap&) = delete;
    WeightSwap& operator=(const WeightSwap&) = delete;

private:
    TensorImpl* m_impl;
    std::shared_ptr<Storage> m_storage;
    DType m_dtype;
};

double stepFor(double x, const FiniteDifferenceOptions& options) { return options.step * std::max(1.0, std::fabs(x)); }

/// The differences for one tensor; `evaluate(value)` runs the objective with the tensor replaced.
SampledGradient differences(std::string name, const Tensor& value, const Tensor& analytic,
                            const FiniteDifferenceOptions& options,
                            const std::function<double(const Tensor&)>& evaluate)
{
    SampledGradient out;
    out.name = std::move(name);
    out.shape = value.shape().toVector();
    if (!isFloating(value.dtype()))
        return out;
    out.indices = sampleElements(analytic.defined() ? analytic : value, options.maxElements);
    const std::vector<double> x = value.toDoubles();
    for (std::int64_t i : out.indices) {
        const double h = stepFor(x[static_cast<std::size_t>(i)], options);
        const double plus = evaluate(shifted(value, i, h));
        const double minus = evaluate(shifted(value, i, -h));
        out.values.push_back((plus - minus) / (2 * h));
    }
    return out;
}

} // namespace

std::vector<SampledGradient> centralDifferences(const std::function<double(const std::vector<Value>&)>& objective,
                                                const std::vector<Value>& args,
                                                std::span<const std::int64_t> positions,
                                                std::span<const Parameter> weights,
                                                std::span<const Tensor> inputGrads,
                                                std::span<const Tensor> weightGrads,
                                                const FiniteDifferenceOptions& options)
{
    // No observer: the probes are not steps, and their ops are not the run's nodes.
    ObserverGuard quiet(nullptr);
    PhaseGuard forward(Phase::Forward);
    MixedPrecisionGuard wide(DType::Float64);
    std::vector<SampledGradient> result;
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const auto p = static_cast<std::size_t>(positions[k]);
        const Tensor& value = args[p].tensor();
        const Tensor analytic = k < inputGrads.size() ? inputGrads[k] : Tensor();
        result.push_back(differences("input" + std::to_string(p), value, analytic, options, [&](const Tensor& v) {
            std::vector<Value> at = args;
            at[p] = v;
            return objective(at);
        }));
    }
    for (std::size_t k = 0; k < weights.size(); ++k) {
        const Tensor analytic = k < weightGrads.size() ? weightGrads[k] : Tensor();
        const Parameter& weight = weights[k];
        result.push_back(differences(weight.name(), weight.clone(), analytic, options, [&](const Tensor& v) {
            WeightSwap swap(weight, v);
            return objective(args);
        }));
    }
    return result;
}

} // namespace gradstep

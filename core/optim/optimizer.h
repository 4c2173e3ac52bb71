// Optimizer: the base of SGD, Momentum and Adam (MindSpore's nn.Optimizer without parameter
// groups). optimizer(grads) applies one in-place update with the update's ops recorded nowhere
// and reported to the observer in Phase::Update. SPDX-License-Identifier: MIT
#pragma once

#include "nn/parameter.h"

#include <cstdint>
#include <string>

namespace gradstep {

class Optimizer {
public:
    virtual ~Optimizer() = default;
    Optimizer(const Optimizer&) = delete;
    Optimizer& operator=(const Optimizer&) = delete;

    /// Applies one update; grads[i] belongs to parameters()[i]. ValueError when the count differs,
    /// ShapeError when a gradient's shape or dtype differs from its parameter's.
    void operator()(const TensorList& grads);

    const std::string& className() const { return m_className; }
    const ParameterTuple& parameters() const { return m_parameters; }
    double learningRate() const { return m_learningRate; }
    /// ValueError unless lr is finite and >= 0.
    void setLearningRate(double learningRate);
    double weightDecay() const { return m_weightDecay; }
    /// How many updates have been applied.
    std::int64_t globalStep() const { return m_globalStep; }

protected:
    /// ValueError for an empty or duplicated parameter list, a negative learning rate or decay.
    Optimizer(std::string className, ParameterTuple parameters, double learningRate,
              double weightDecay);

    /// Called once per step before the per-parameter updates (Adam advances beta^t here).
    virtual void beginStep() {}
    /// Updates parameters()[index] in place from its gradient (weight decay not yet applied).
    virtual void update(std::size_t index, const Tensor& grad) = 0;

    /// g + weight_decay * w (coupled L2, SEMANTICS.md §7.5), except for parameters whose name
    /// contains "beta" or "gamma" and when weight_decay is 0.
    Tensor decayedGradient(std::size_t index, const Tensor& grad) const;
    /// Zeros shaped like each parameter: the initial moment buffers. They are Parameters named
    /// "<prefix>.<parameter name>" (MindSpore's "moments.conv1.weight"), so a compiled update
    /// takes them as graph inputs and writes them back (writeState) like the weights.
    TensorList zerosLikeParameters(const std::string& prefix) const;
    /// A 0-D tensor of v in the dtype of like, for the update arithmetic.
    static Tensor scalar(double v, const Tensor& like);
    /// ValueError "for '<class>', '<what>' must be ..., but got <value>".
    [[noreturn]] void throwArgument(const std::string& what, const std::string& rule,
                                    double value) const;

private:
    void traceUpdate(const TensorList& grads);

    std::string m_className;
    ParameterTuple m_parameters;
    double m_learningRate;
    double m_weightDecay;
    std::int64_t m_globalStep = 0;
};

} // namespace gradstep

// The optimizer base. SPDX-License-Identifier: MIT
#include "optim/optimizer.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "io/number_format.h"
#include "ops/elementwise.h"

#include <cmath>

namespace gradstep {

Optimizer::Optimizer(std::string className, ParameterTuple parameters, double learningRate,
                     double weightDecay)
    : m_className(std::move(className)), m_parameters(std::move(parameters)), m_learningRate(0.0),
      m_weightDecay(weightDecay)
{
    if (m_parameters.empty())
        throw ValueError("for '" + m_className
                         + "', the parameter list is empty, expected at least one Parameter");
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        if (!m_parameters[i].defined())
            throw ValueError("for '" + m_className + "', parameter " + std::to_string(i)
                             + " is undefined");
        for (std::size_t j = 0; j < i; ++j)
            if (m_parameters[i].sameAs(m_parameters[j]))
                throw ValueError("for '" + m_className + "', the parameter '"
                                 + m_parameters[i].name() + "' is listed twice");
    }
    setLearningRate(learningRate);
    if (!(weightDecay >= 0.0) || std::isinf(weightDecay))
        throwArgument("weight_decay", "a finite number >= 0.0", weightDecay);
}

void Optimizer::setLearningRate(double learningRate)
{
    if (!(learningRate >= 0.0) || std::isinf(learningRate))
        throwArgument("learning_rate", "a finite number >= 0.0", learningRate);
    m_learningRate = learningRate;
}

void Optimizer::throwArgument(const std::string& what, const std::string& rule, double value) const
{
    throw ValueError("for '" + m_className + "', the argument '" + what + "' must be " + rule
                     + ", but got " + formatNumber(value));
}

void Optimizer::operator()(const TensorList& grads)
{
    if (grads.size() != m_parameters.size())
        throw ValueError("for '" + m_className + "', got " + std::to_string(grads.size())
                         + " gradients for " + std::to_string(m_parameters.size()) + " parameters");
    for (std::size_t i = 0; i < grads.size(); ++i) {
        const Parameter& p = m_parameters[i];
        if (!grads[i].defined() || !(grads[i].shape() == p.shape())
            || grads[i].dtype() != p.dtype())
            throw ShapeError("for '" + m_className + "', the gradient of '" + p.name() + "' is "
                             + (grads[i].defined() ? grads[i].shape().toString() + " "
                                        + std::string(dtypeName(grads[i].dtype()))
                                                   : std::string("undefined"))
                             + ", expected " + p.shape().toString() + " "
                             + std::string(dtypeName(p.dtype())));
    }
    NoGradGuard noGrad;
    PhaseGuard phase(Phase::Update);
    ScopeGuard scope(m_className);
    ExecutionContext& ctx = executionContext();
    if (ctx.tracer) {
        traceUpdate(grads);
        return;
    }
    ExecutionObserver* observer = ctx.observer;
    UpdateEvent event{&m_className, m_globalStep + 1, m_learningRate, m_parameters, grads};
    if (observer)
        observer->updateStarted(event);
    beginStep();
    for (std::size_t i = 0; i < grads.size(); ++i)
        update(i, grads[i].detach());
    ++m_globalStep;
    if (observer)
        observer->updateFinished(event);
}

// Compiled (Note [Side effects in compiled code] in autodiff/context.h): the update's ops become
// graph nodes and its writes the graph's state outputs; each run reports the update with the
// run's gradients and advances the step count, as a PyNative update does.
void Optimizer::traceUpdate(const TensorList& grads)
{
    ExecutionContext& ctx = executionContext();
    if (!ctx.stateWriter) {
        ++ctx.untraceableCalls;
        throw RuntimeError("for '" + m_className
                           + "', the update cannot be traced into this graph");
    }
    beginStep();
    for (std::size_t i = 0; i < grads.size(); ++i)
        update(i, grads[i].detach());
    ctx.stateWriter->everyRun(
        [this] {
            if (ExecutionObserver* observer = executionContext().observer) {
                const UpdateEvent event{&m_className, m_globalStep + 1, m_learningRate,
                                        m_parameters, {}};
                observer->updateStarted(event);
            }
        },
        [this](const TensorList& values) {
            ++m_globalStep;
            if (ExecutionObserver* observer = executionContext().observer) {
                const UpdateEvent event{&m_className, m_globalStep, m_learningRate, m_parameters,
                                        values};
                observer->updateFinished(event);
            }
        },
        grads, EffectTime::AfterRun);
}

Tensor Optimizer::decayedGradient(std::size_t index, const Tensor& grad) const
{
    const Parameter& p = m_parameters[index];
    const std::string& name = p.name();
    if (m_weightDecay == 0.0 || name.find("beta") != std::string::npos
        || name.find("gamma") != std::string::npos)
        return grad;
    return add(grad, mul(p, scalar(m_weightDecay, p)));
}

TensorList Optimizer::zerosLikeParameters(const std::string& prefix) const
{
    TensorList out;
    for (const Parameter& p : m_parameters)
        out.push_back(
            Parameter(Tensor::zeros(p.shape(), p.dtype()), prefix + "." + p.name(), false));
    return out;
}

Tensor Optimizer::scalar(double v, const Tensor& like) { return scalarLike(v, like); }

} // namespace gradstep

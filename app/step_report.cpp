// Step report. SPDX-License-Identifier: MIT
#include "app/step_report.h"

#include "api/value.h"
#include "tensor/tensor_norm.h"
#include "tensor/dtype_storage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gradstep::app {

namespace {

/// The first Tensor leaf of the value (the loss of `(loss, aux)`), as a number when it has one
/// element; none otherwise.
std::optional<double> lossOf(const Value* value)
{
    if (!value)
        return std::nullopt;
    const Value* v = value;
    while (v->isTuple()) {
        if (v->items().empty())
            return std::nullopt;
        v = &v->items().front();
    }
    if (!v->isTensor() || v->tensor().numel() != 1)
        return std::nullopt;
    return v->tensor().at(0);
}

Json number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

std::string cell(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

} // namespace

StepReport::StepReport(std::int64_t stopAfter, std::function<void()> requestStop)
    : m_stopAfter(stopAfter), m_requestStop(std::move(requestStop))
{}

void StepReport::nodeFinished(const NodeEvent& event)
{
    if (event.graphNode)
        m_ranGraphNodes = true;
}

void StepReport::gradCallStarted(const GradCallEvent& event)
{
    if (event.depth != 0)
        return;
    std::unique_lock lock(m_mutex);
    if (m_stopAfter > 0 && static_cast<std::int64_t>(m_steps.size()) >= m_stopAfter) {
        if (!m_stopped) {
            lock.unlock();
            stop();
        }
        return;
    }
    const auto step = static_cast<std::int64_t>(m_steps.size()) + 1;
    lock.unlock();
    if (m_beforeStep)
        m_beforeStep(step);
}

void StepReport::gradCallFinished(const GradCallEvent& event)
{
    if (event.depth != 0 || !event.completed)
        return;
    StepRecord record;
    record.loss = lossOf(event.value);
    for (std::size_t i = 0; i < event.weights.size() && i < event.weightGrads.size(); ++i) {
        const Parameter& p = event.weights[i];
        const Tensor& g = event.weightGrads[i];
        ParamStep param;
        param.name = p.name();
        param.shape.assign(p.shape().begin(), p.shape().end());
        double squares = 0.0;
        sumSquaresAndSum(g, squares, param.gradSum);
        param.gradNorm = std::sqrt(squares);
        for (std::int64_t k = 0; k < std::min<std::int64_t>(5, g.numel()); ++k)
            param.gradFirst5.push_back(g.at(k));
        param.valueNorm = l2Norm(p);
        record.params.push_back(std::move(param));
    }
    for (const Tensor& g : event.inputGrads)
        record.inputGradNorms.push_back(g.defined() ? l2Norm(g) : 0.0);
    std::lock_guard lock(m_mutex);
    record.step = static_cast<std::int64_t>(m_steps.size()) + 1;
    m_steps.push_back(std::move(record));
}

void StepReport::updateFinished(const UpdateEvent& event)
{
    std::unique_lock lock(m_mutex);
    if (m_steps.empty())
        return;
    StepRecord& step = m_steps.back();
    if (!step.updated && !std::isnan(event.learningRate))
        step.learningRate = event.learningRate;
    step.updated = true;
    const std::int64_t number = step.step;
    const bool limitReached = m_stopAfter > 0 && static_cast<std::int64_t>(m_steps.size()) >= m_stopAfter && !m_stopped;
    lock.unlock();
    if (m_afterUpdate)
        m_afterUpdate(event, number);
    if (limitReached)
        stop();
}

void StepReport::lossScaleReported(const LossScaleEvent& event)
{
    // Sent after the step's gradient call and before its update (which an overflow skips). The
    // call differentiated the scaled loss: its gradients are divided by the scale here, as the
    // step divides them before the optimizer, so the table shows the gradients of the loss it
    // shows (an overflowing step's stay inf or NaN).
    std::lock_guard lock(m_mutex);
    if (m_steps.empty())
        return;
    StepRecord& step = m_steps.back();
    step.lossScale = event;
    if (!(event.lossScale > 0.0) || !std::isfinite(event.lossScale))
        return;
    for (ParamStep& p : step.params) {
        p.gradNorm /= event.lossScale;
        p.gradSum /= event.lossScale;
        for (double& v : p.gradFirst5)
            v /= event.lossScale;
    }
    for (double& n : step.inputGradNorms)
        n /= event.lossScale;
}

void StepReport::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            return;
        m_stopped = true;
    }
    if (m_requestStop)
        m_requestStop();
}

std::vector<StepRecord> StepReport::steps() const
{
    std::lock_guard lock(m_mutex);
    return m_steps;
}

bool StepReport::stopRequested() const
{
    std::lock_guard lock(m_mutex);
    return m_stopped;
}

/// The gradient norms a step shows in the table: its parameters', else its inputs'.
std::vector<std::pair<std::string, double>> tableNorms(const StepRecord& s)
{
    std::vector<std::pair<std::string, double>> norms;
    for (const ParamStep& p : s.params)
        norms.emplace_back(p.name, p.gradNorm);
    if (norms.empty())
        for (std::size_t i = 0; i < s.inputGradNorms.size(); ++i)
            norms.emplace_back("input" + std::to_string(i), s.inputGradNorms[i]);
    return norms;
}

std::string formatStepTable(const std::vector<StepRecord>& steps)
{
    if (steps.empty())
        return "no training steps (no gradient function was called)\n";
    // Steps may differ in what they differentiate: the columns are every name in order of first
    // appearance, and a step without one leaves its cell empty.
    std::vector<std::string> names;
    for (const StepRecord& s : steps)
        for (const auto& [name, norm] : tableNorms(s))
            if (std::find(names.begin(), names.end(), name) == names.end())
                names.push_back(name);
    // The learning rate shows when an optimizer reported one: schedules are a common bug source.
    const bool rates = std::any_of(steps.begin(), steps.end(), [](const StepRecord& s) { return s.learningRate.has_value(); });
    const bool scaled = std::any_of(steps.begin(), steps.end(), [](const StepRecord& s) { return s.lossScale.has_value(); });
    std::vector<std::string> header{"step", "loss"};
    if (scaled) {
        header.push_back("loss scale");
        header.push_back("overflow");
    }
    if (rates)
        header.push_back("lr");
    const std::size_t firstNorm = header.size();
    for (const std::string& name : names)
        header.push_back("|d " + name + "|");
    std::vector<std::vector<std::string>> rows{header};
    for (const StepRecord& s : steps) {
        std::vector<std::string> row{std::to_string(s.step), s.loss ? cell(*s.loss) : "-"};
        if (scaled) {
            // Scales are powers of the factor (2^24 = 16777216): all their digits.
            char scale[32];
            if (s.lossScale)
                std::snprintf(scale, sizeof scale, "%.10g", s.lossScale->lossScale);
            row.push_back(s.lossScale ? std::string(scale) : "-");
            row.push_back(!s.lossScale             ? "-"
                          : !s.lossScale->overflow ? "no"
                          : s.lossScale->updateSkipped ? "yes, skipped"
                                                       : "yes");
        }
        if (rates)
            row.push_back(s.learningRate ? cell(*s.learningRate) : "-");
        row.resize(header.size());
        for (const auto& [name, norm] : tableNorms(s))
            row[firstNorm + static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin())] = cell(norm);
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> width(header.size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c)
            line += (c ? "  " : "") + std::string(width[c] - row[c].size(), ' ') + row[c];
        out += line.substr(0, line.find_last_not_of(' ') + 1) + '\n';
    }
    return out;
}

Json stepReportJson(const std::string& script, const std::string& api, const std::string& mode,
                    const std::vector<StepRecord>& steps)
{
    Json::Array stepItems;
    for (const StepRecord& s : steps) {
        Json::Array params;
        for (const ParamStep& p : s.params) {
            Json::Array shape;
            for (std::int64_t d : p.shape)
                shape.emplace_back(d);
            Json::Array first;
            for (double v : p.gradFirst5)
                first.push_back(number(v));
            params.emplace_back(Json::Object{{"name", p.name},
                                             {"shape", Json(shape)},
                                             {"grad_norm", number(p.gradNorm)},
                                             {"grad_sum", number(p.gradSum)},
                                             {"grad_first5", Json(first)},
                                             {"value_norm", number(p.valueNorm)}});
        }
        Json::Array inputs;
        for (double n : s.inputGradNorms)
            inputs.push_back(number(n));
        Json item(Json::Object{{"step", s.step},
                               {"loss", s.loss ? number(*s.loss) : Json(nullptr)},
                               {"params", Json(params)},
                               {"input_grad_norms", Json(inputs)},
                               {"updated", s.updated},
                               {"learning_rate", s.learningRate ? number(*s.learningRate) : Json(nullptr)}});
        if (s.lossScale) {
            item["loss_scale"] = number(s.lossScale->lossScale);
            item["overflow"] = s.lossScale->overflow;
        }
        stepItems.push_back(std::move(item));
    }
    return Json(Json::Object{{"script", script}, {"api", api}, {"mode", mode}, {"steps", Json(stepItems)}});
}

} // namespace gradstep::app

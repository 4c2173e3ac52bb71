// What `gradstep run` reports per training step: the loss and every parameter's gradient, taken
// from the step events of the script's worker thread (a step is one gradient-function call that
// is not nested in another), printed as an aligned table and written as JSON.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/observer.h"
#include "io/json.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::app {

struct ParamStep {
    std::string name;
    std::vector<std::int64_t> shape;
    double gradNorm = 0.0;
    double gradSum = 0.0;
    std::vector<double> gradFirst5;
    double valueNorm = 0.0; ///< the parameter's L2 norm when its gradient was computed
};

struct StepRecord {
    std::int64_t step = 0;             ///< 1-based
    std::optional<double> loss;        ///< the value's first output; none for grad-only APIs
    std::vector<ParamStep> params;     ///< the weights the gradient function was asked for
    std::vector<double> inputGradNorms;///< one per differentiated input position
    bool updated = false;              ///< an optimizer update followed within this step
    std::optional<double> learningRate;///< what the step's first optimizer update used
    /// Loss scaling (TrainOneStepWithLossScaleCell, amp's O2): the scale the step's loss was
    /// multiplied by and whether its gradients overflowed (the update is then skipped); none
    /// when the script scales no loss. The step's gradient figures are then of the unscaled
    /// gradients (divided by the scale, as the step divides them for the optimizer).
    std::optional<LossScaleEvent> lossScale;
};

/// Collects steps; when `stopAfter` > 0 it calls `requestStop` once the stopAfter-th step's
/// optimizer update has finished, or when step stopAfter+1 begins without an update seen;
/// requestStop may throw to end the script right there (ScriptRunner::stopNow), so it is called
/// last and nothing here holds a lock around it.
class StepReport : public ExecutionObserver {
public:
    StepReport(std::int64_t stopAfter, std::function<void()> requestStop);

    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent& event) override;
    void gradCallStarted(const GradCallEvent& event) override;
    void gradCallFinished(const GradCallEvent& event) override;
    void updateFinished(const UpdateEvent& event) override;
    void lossScaleReported(const LossScaleEvent& event) override;
    /// Node events only tell whether graph mode ran; after the first graph node there is
    /// nothing more to learn from them, and graph mode runs at full speed without them.
    bool wantsNodeEvents() const override { return !m_ranGraphNodes.load(std::memory_order_relaxed); }

    /// The steps so far (a copy: events arrive on the worker thread).
    std::vector<StepRecord> steps() const;
    /// True once the step limit was reached and a stop was requested.
    bool stopRequested() const;
    /// True when any node ran in a compiled graph (graph mode) rather than eagerly.
    bool ranGraphNodes() const { return m_ranGraphNodes.load(); }
    /// Called after each optimizer update that ends a step, with the step's number and no lock
    /// held (ranks-diverge compares the updated weights there); it may throw to end the script.
    void setAfterUpdate(std::function<void(const UpdateEvent&, std::int64_t step)> afterUpdate)
    {
        m_afterUpdate = std::move(afterUpdate);
    }
    /// Called as each training step begins (a depth-0 gradient call starts), with the step's
    /// number and no lock held (shard-overlap compares the samples the ranks read for it); it may
    /// throw to end the script. Not called for the step after --steps N's last.
    void setBeforeStep(std::function<void(std::int64_t step)> beforeStep) { m_beforeStep = std::move(beforeStep); }

private:
    void stop();

    std::int64_t m_stopAfter;
    std::function<void()> m_requestStop;
    std::function<void(const UpdateEvent&, std::int64_t)> m_afterUpdate;
    std::function<void(std::int64_t)> m_beforeStep;
    mutable std::mutex m_mutex;
    std::vector<StepRecord> m_steps;
    bool m_stopped = false;
    std::atomic<bool> m_ranGraphNodes{false};
};

/// The table printed after the run: one row per step, the loss (with the loss scale and whether
/// the step overflowed, when the script scales its loss) and each parameter's gradient norm (or
/// each differentiated input's when the steps have no parameters).
std::string formatStepTable(const std::vector<StepRecord>& steps);

/// {"script", "api", "mode", "steps": [{"step", "loss", ["loss_scale", "overflow",] "params":
/// [{"name", "shape", "grad_norm", "grad_sum", "grad_first5", "value_norm"}], "input_grad_norms",
/// "updated", "learning_rate"}]}; loss_scale and overflow only for steps that scaled their loss.
/// A non-finite number is written as null.
Json stepReportJson(const std::string& script, const std::string& api, const std::string& mode,
                    const std::vector<StepRecord>& steps);

} // namespace gradstep::app

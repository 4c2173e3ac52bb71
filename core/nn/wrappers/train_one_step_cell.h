// nn.TrainOneStepCell(network, optimizer, sens=1.0): one call runs the network forward, takes the
// gradients of its single output (the loss) with respect to optimizer.parameters() with the
// output cotangent filled with sens, applies the optimizer and returns the loss.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"
#include "nn/wrappers/grad_reducer.h"
#include "optim/optimizer.h"

#include <memory>
#include <optional>

namespace gradstep {

class TrainOneStepCell : public Cell {
public:
    TrainOneStepCell(CellPtr network, std::shared_ptr<Optimizer> optimizer, double sens = 1.0);
    /// The network's inputs (data, label); returns the loss computed before the update (detached).
    /// ValueError when the network returns anything but one Tensor.
    Value construct(const std::vector<Value>& args) override;

    const CellPtr& network() const { return m_network; }
    const std::shared_ptr<Optimizer>& optimizer() const { return m_optimizer; }
    double sens() const { return m_sens; }
    /// Data-parallel mode (set_auto_parallel_context(parallel_mode=DATA_PARALLEL)): the gradients
    /// are all-reduced after the step reports them (so the report shows each rank's own) and
    /// before the optimizer, as MindSpore's grad_reducer does.
    void setGradientReduction(std::optional<GradientReduction> reduction) { m_reduction = std::move(reduction); }
    const std::optional<GradientReduction>& gradientReduction() const { return m_reduction; }

private:
    /// Forward and backward: the gradients of optimizer.parameters(); `loss` gets the loss.
    TensorList lossAndGradients(const std::vector<Value>& args, Value& loss);
    TensorList tracedLossAndGradients(const std::vector<Value>& args, Value& loss);

    CellPtr m_network;
    std::shared_ptr<Optimizer> m_optimizer;
    double m_sens;
    std::optional<GradientReduction> m_reduction;
};

} // namespace gradstep

// nn.Momentum(params, learning_rate, momentum, weight_decay=0.0, use_nesterov=False), as
// MindSpore's ApplyMomentum computes it (SEMANTICS.md §7.5), per parameter with g decayed:
//   v = v*u + g  (v starts at 0);  p -= g*lr + v*u*lr with nesterov, else p -= lr*v
// SPDX-License-Identifier: MIT
#pragma once

#include "optim/optimizer.h"

namespace gradstep {

class Momentum : public Optimizer {
public:
    /// learning_rate and momentum have no defaults in MindSpore. ValueError for momentum < 0.
    Momentum(ParameterTuple params, double learningRate, double momentum, double weightDecay = 0.0,
             bool useNesterov = false);

    double momentum() const { return m_momentum; }
    /// The velocity buffers v, one per parameter (MindSpore's `moments`).
    const TensorList& moments() const { return m_moments; }

protected:
    void update(std::size_t index, const Tensor& grad) override;

private:
    double m_momentum;
    bool m_useNesterov;
    TensorList m_moments;
};

} // namespace gradstep

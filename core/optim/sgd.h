// nn.SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False),
// as MindSpore's SGD kernel computes it (SEMANTICS.md §7.5), per parameter with g decayed:
//   momentum > 0:  first step v = g, later v = u*v + (1 - dampening)*g;
//                  p -= lr * (g + u*v) with nesterov, else p -= lr * v
//   momentum = 0:  p -= lr * g (dampening has no effect)
// SPDX-License-Identifier: MIT
#pragma once

#include "optim/optimizer.h"

namespace gradstep {

class SGD : public Optimizer {
public:
    /// ValueError for momentum < 0, dampening < 0, or nesterov without momentum > 0 and
    /// dampening 0.
    explicit SGD(ParameterTuple params, double learningRate = 0.1, double momentum = 0.0,
                 double dampening = 0.0, double weightDecay = 0.0, bool nesterov = false);

    double momentum() const { return m_momentum; }
    /// The momentum buffers v (zeros until the first step), one per parameter.
    const TensorList& accum() const { return m_accum; }

protected:
    void update(std::size_t index, const Tensor& grad) override;

private:
    double m_momentum;
    double m_dampening;
    bool m_nesterov;
    TensorList m_accum;
    TensorList m_stat; ///< momentum > 0: per parameter, ones until the first update
};

} // namespace gradstep

// nn.Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0,
// use_nesterov=False) in the form MindSpore's Adam kernel computes (SEMANTICS.md §7.5): with g
// decayed and t the 1-based step,
//   m += (g - m)(1 - b1);  v += (g^2 - v)(1 - b2);  l = lr sqrt(1 - b2^t) / (1 - b1^t)
//   p -= l m / (sqrt(v) + eps)   or with nesterov   p -= l (m b1 + (1 - b1) g) / (sqrt(v) + eps)
// eps is added to the uncorrected sqrt(v), so early steps differ slightly from the textbook form.
// The powers b^t are kept in float64 Parameters (MindSpore keeps them in float32 ones), so a
// compiled update reads and advances them in the graph with the double arithmetic of PyNative.
// SPDX-License-Identifier: MIT
#pragma once

#include "optim/optimizer.h"

namespace gradstep {

class Adam : public Optimizer {
public:
    /// ValueError unless 0 < beta1, beta2 < 1 and eps > 0.
    explicit Adam(ParameterTuple params, double learningRate = 1e-3, double beta1 = 0.9,
                  double beta2 = 0.999, double eps = 1e-8, double weightDecay = 0.0,
                  bool useNesterov = false);

    /// First and second moment buffers, one per parameter.
    const TensorList& moment1() const { return m_moment1; }
    const TensorList& moment2() const { return m_moment2; }

protected:
    void beginStep() override;
    void update(std::size_t index, const Tensor& grad) override;

private:
    double m_beta1, m_beta2, m_eps;
    bool m_useNesterov;
    Tensor m_beta1Power, m_beta2Power; ///< float64 0-D Parameters, b^t after beginStep
    Tensor m_stepSize;                 ///< this step's l (float64 0-D), set by beginStep
    TensorList m_moment1, m_moment2;
};

} // namespace gradstep

// LeNet5. SPDX-License-Identifier: MIT
#include "nn/models/lenet5.h"

#include "nn/layers/conv2d.h"
#include "nn/layers/dense.h"
#include "nn/layers/flatten.h"
#include "nn/layers/max_pool2d.h"
#include "nn/layers/relu.h"

namespace gradstep {

// Attributes in lenet.py's order, so parameter order and names match MindSpore's: conv1.weight,
// conv2.weight, fc1.weight, fc1.bias, ... The convs keep MindSpore's has_bias=False; the one
// ReLU and the one pooling Cell are each called twice, as in the original.
LeNet5::LeNet5(std::int64_t numClass, std::int64_t numChannel, bool includeTop)
    : Cell("LeNet5"), m_includeTop(includeTop)
{
    m_conv1 = registerChild("conv1", std::make_shared<Conv2d>(numChannel, 6, 5, 1, "valid"));
    m_conv2 = registerChild("conv2", std::make_shared<Conv2d>(6, 16, 5, 1, "valid"));
    m_relu = registerChild("relu", std::make_shared<ReLU>());
    m_maxPool2d = registerChild("max_pool2d", std::make_shared<MaxPool2d>(2, 2));
    if (!includeTop)
        return;
    m_flatten = registerChild("flatten", std::make_shared<Flatten>());
    m_fc1 = registerChild("fc1", std::make_shared<Dense>(16 * 5 * 5, 120, Normal(0.02)));
    m_fc2 = registerChild("fc2", std::make_shared<Dense>(120, 84, Normal(0.02)));
    m_fc3 = registerChild("fc3", std::make_shared<Dense>(84, numClass, Normal(0.02)));
}

Value LeNet5::construct(const std::vector<Value>& args)
{
    Tensor x = tensorArg(args, 0, 1);
    auto call = [](const CellPtr& cell, const Tensor& in) { return (*cell)(in).tensor(); };
    x = call(m_maxPool2d, call(m_relu, call(m_conv1, x)));
    x = call(m_maxPool2d, call(m_relu, call(m_conv2, x)));
    if (!m_includeTop)
        return x;
    x = call(m_flatten, x);
    x = call(m_relu, call(m_fc1, x));
    x = call(m_relu, call(m_fc2, x));
    return call(m_fc3, x);
}

} // namespace gradstep

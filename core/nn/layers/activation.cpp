// get_activation. SPDX-License-Identifier: MIT
#include "nn/layers/activation.h"

#include "nn/layers/relu.h"
#include "nn/layers/sigmoid.h"
#include "nn/layers/softmax.h"
#include "nn/layers/tanh.h"

namespace gradstep {

CellPtr getActivation(const std::string& name)
{
    if (name.empty())
        return nullptr;
    if (name == "relu")
        return std::make_shared<ReLU>();
    if (name == "sigmoid")
        return std::make_shared<Sigmoid>();
    if (name == "tanh")
        return std::make_shared<Tanh>();
    if (name == "softmax")
        return std::make_shared<Softmax>();
    throw ValueError("the activation '" + name
                     + "' is not supported, expected one of relu, sigmoid, "
                       "tanh, softmax");
}

} // namespace gradstep

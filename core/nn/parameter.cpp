// Parameters. SPDX-License-Identifier: MIT
#include "nn/parameter.h"

#include "autodiff/node.h"

namespace gradstep {

Parameter::Parameter(const Tensor& value, const std::string& name, bool requiresGrad)
    : Tensor(value.detach())
{
    // MindSpore's Parameter takes any dtype and requires grad by default, integers included.
    if (!carriesGradient(dtype()) && requiresGrad)
        throw TypeError("Parameter '" + name + "' is a Bool tensor, which carries no gradient: "
                        "create it with requires_grad=False");
    impl()->gradFn = makeLeafNode(name);
    impl()->requiresGrad = requiresGrad;
}

const std::string& Parameter::name() const { return gradFn()->name; }

void Parameter::setName(const std::string& name) { gradFn()->name = name; }

void Parameter::setData(const Tensor& value)
{
    Tensor copy = value.clone();
    impl()->shape = copy.shape();
    impl()->dtype = copy.dtype();
    impl()->storage = copy.impl()->storage;
}

void Parameter::setRequiresGrad(bool requiresGrad) { impl()->requiresGrad = requiresGrad; }

} // namespace gradstep

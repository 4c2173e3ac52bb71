// Parameters. SPDX-License-Identifier: MIT
#include "nn/parameter.h"

#include "autodiff/node.h"

namespace gradstep {

Parameter::Parameter(const Tensor& value, const std::string& name, bool requiresGrad)
    : Tensor(value.detach())
{
    if (!isFloating(dtype()) && requiresGrad)
        throw TypeError("Parameter '" + name + "' must be float32 or float64 to require grad, got "
                        + std::string(dtypeName(dtype())));
    impl()->gradFn = makeLeafNode(name);
    impl()->requiresGrad = requiresGrad;
}

const std::string& Parameter::name() const { return gradFn()->name; }

void Parameter::setName(const std::string& name) { gradFn()->name = name; }

void Parameter::setData(const Tensor& value)
{
    if (!isFloating(value.dtype()))
        throw TypeError("Parameter '" + name() + "' must be float32 or float64, got "
                        + std::string(dtypeName(value.dtype())));
    Tensor copy = value.clone();
    impl()->shape = copy.shape();
    impl()->dtype = copy.dtype();
    impl()->storage = copy.impl()->storage;
}

void Parameter::setRequiresGrad(bool requiresGrad) { impl()->requiresGrad = requiresGrad; }

} // namespace gradstep

// What a backward rule sees of its node. SPDX-License-Identifier: MIT
#include "autodiff/context.h"
#include "autodiff/node.h"

namespace gradstep {

const Tensor& BackwardContext::input(std::size_t i) const { return m_node.inputs[i]; }

std::size_t BackwardContext::inputCount() const { return m_node.inputs.size(); }

const Attrs& BackwardContext::attrs() const { return m_node.attrs; }

bool BackwardContext::needsGrad(std::size_t inputIndex) const
{
    return m_node.inputs[inputIndex].requiresGrad();
}

Tensor BackwardContext::output(std::size_t i) const
{
    const Tensor& saved = m_node.outputs[i];
    if (!executionContext().recording())
        return saved;
    // Re-link the output to its node so that a rule using it stays differentiable.
    auto impl = std::make_shared<TensorImpl>(*saved.impl());
    impl->gradFn = std::const_pointer_cast<Node>(m_node.shared_from_this());
    impl->outputIndex = static_cast<std::uint32_t>(i);
    impl->requiresGrad = true;
    return Tensor(std::move(impl));
}

} // namespace gradstep

// nn.SoftmaxCrossEntropyWithLogits. SPDX-License-Identifier: MIT
#include "nn/losses/softmax_cross_entropy_with_logits.h"

#include "ops/nn_ops.h"

namespace gradstep {

SoftmaxCrossEntropyWithLogits::SoftmaxCrossEntropyWithLogits(bool sparse,
                                                             const std::string& reduction)
    : LossBase("SoftmaxCrossEntropyWithLogits", reduction), m_sparse(sparse)
{}

Value SoftmaxCrossEntropyWithLogits::construct(const std::vector<Value>& args)
{
    const Tensor& logits = tensorArg(args, 0, 2);
    const Tensor& labels = tensorArg(args, 1, 2);
    return getLoss(m_sparse ? sparseSoftmaxCrossEntropy(logits, labels)
                            : softmaxCrossEntropy(logits, labels));
}

} // namespace gradstep

// nn.MaxPool2d. SPDX-License-Identifier: MIT
#include "nn/layers/max_pool2d.h"

#include "nn/layers/pool_args.h"

namespace gradstep {

MaxPool2d::MaxPool2d(IntPair kernelSize, IntPair stride, const std::string& padMode)
    : Cell("MaxPool2d"), m_options(makePool2dOptions("MaxPool2d", kernelSize, stride, padMode))
{}

Value MaxPool2d::construct(const std::vector<Value>& args)
{
    return maxPool2d(tensorArg(args, 0, 1), m_options);
}

std::string MaxPool2d::extraRepr() const { return poolRepr(m_options); }

} // namespace gradstep

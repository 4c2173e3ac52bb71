// nn.AvgPool2d. SPDX-License-Identifier: MIT
#include "nn/layers/avg_pool2d.h"

#include "nn/layers/pool_args.h"

namespace gradstep {

AvgPool2d::AvgPool2d(IntPair kernelSize, IntPair stride, const std::string& padMode)
    : Cell("AvgPool2d"), m_options(makePool2dOptions("AvgPool2d", kernelSize, stride, padMode))
{}

Value AvgPool2d::construct(const std::vector<Value>& args)
{
    return avgPool2d(tensorArg(args, 0, 1), m_options);
}

std::string AvgPool2d::extraRepr() const { return poolRepr(m_options); }

} // namespace gradstep

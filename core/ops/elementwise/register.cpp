// Registers the elementwise ops. SPDX-License-Identifier: MIT
#include "ops/elementwise/defs.h"
#include "ops/registry.h"

namespace gradstep {

void registerElementwiseOps(OpRegistry& registry)
{
    for (const OpDef* op : {&kAdd, &kSub, &kMul, &kRealDiv, &kNeg, &kPow, &kAbs, &kSquare, &kSign, &kRound,
                            &kMaximum, &kMinimum, &kCast, &kReal, &kImag, &kConj, &kComplex,
                            &kExp, &kLog, &kSqrt, &kRsqrt, &kSin, &kCos, &kErf,
                            &kReLU, &kReluGrad, &kLeakyReLU, &kSigmoid, &kTanh, &kSoftplus, &kGeLU, &kGeLUGrad,
                            &kClipByValue, &kSelect,
                            &kEqual, &kNotEqual, &kGreater, &kGreaterEqual, &kLess, &kLessEqual})
        registry.add(*op);
}

} // namespace gradstep

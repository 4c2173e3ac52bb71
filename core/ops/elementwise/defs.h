// The elementwise op definitions, for the registry. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

// Arithmetic (broadcasting binary ops and unary maps).
extern const OpDef kAdd;
extern const OpDef kSub;
extern const OpDef kMul;
extern const OpDef kRealDiv;
extern const OpDef kNeg;
extern const OpDef kPow;
extern const OpDef kAbs;
extern const OpDef kSquare;
extern const OpDef kSign;
extern const OpDef kRound;
extern const OpDef kMaximum;
extern const OpDef kMinimum;
extern const OpDef kCast;

// Complex numbers: parts, conjugate, and construction from two real tensors.
extern const OpDef kReal;
extern const OpDef kImag;
extern const OpDef kConj;
extern const OpDef kComplex;

// Transcendental (float only).
extern const OpDef kExp;
extern const OpDef kLog;
extern const OpDef kSqrt;
extern const OpDef kRsqrt;
extern const OpDef kSin;
extern const OpDef kCos;
extern const OpDef kErf;

// Activations.
extern const OpDef kReLU;
extern const OpDef kReluGrad;
extern const OpDef kLeakyReLU;
extern const OpDef kSigmoid;
extern const OpDef kTanh;
extern const OpDef kSoftplus;
extern const OpDef kGeLU;
extern const OpDef kGeLUGrad;

// Three-input ops.
extern const OpDef kClipByValue;
extern const OpDef kSelect;

// Comparisons (Bool outputs, not differentiable).
extern const OpDef kEqual;
extern const OpDef kNotEqual;
extern const OpDef kGreater;
extern const OpDef kGreaterEqual;
extern const OpDef kLess;
extern const OpDef kLessEqual;

} // namespace gradstep

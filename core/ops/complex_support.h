// Which ops take complex tensors. Complex64/Complex128 are not compute dtypes: an op computes
// them only with kernels written for std::complex and a backward rule that follows MindSpore's
// convention (the gradient of y = f(z) is dout * conj(f'(z))). Every other op refuses them up
// front with MindSpore's TypeError, before a real kernel could read their bytes.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

/// Whether `op` has complex kernels and a complex-aware backward rule.
bool takesComplex(const OpDef& op);

/// Throws "For 'Sqrt', the type of 'x' should be Tensor[<real dtypes>], but got
/// Tensor[Complex64]." for the first complex input of an op that does not take complex.
void checkComplexInputs(const OpCall& call);

/// The float dtypes, and the complex ones for ops that take them: what a float-only op's
/// TypeError lists ("For 'Sqrt', the type of 'x' should be Tensor[Float16, ..., Complex128]").
DTypeSet inexactDTypes(const OpDef& op);

/// Whether any defined tensor among `tensors` is complex.
bool anyComplex(std::span<const Tensor> tensors);

} // namespace gradstep

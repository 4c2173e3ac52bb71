// Sums over a tensor's elements in double, whatever its dtype, without copying float32 or
// float64 elements: the step reports and the comparison curves take them per parameter per step.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

namespace gradstep {

/// The sum of squares and the sum of the elements; a complex tensor gives sum |z|^2 and the sum
/// of the real parts (a complex sum is not one number).
void sumSquaresAndSum(const Tensor& tensor, double& squares, double& sum);
/// sqrt(sum of squares): the L2 norm, |z| for complex elements; 0 for an undefined tensor.
double l2Norm(const Tensor& tensor);

} // namespace gradstep

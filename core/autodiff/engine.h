// The backward engine: walks a tape in reverse recording order and applies each node's rule.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/tape.h"

#include <span>

namespace gradstep {

/// Gradients of sum_k <roots[k], seeds[k]> with respect to each target, one per target. A target
/// that the roots do not depend on gets zeros of its shape (not nothing). Targets are tensors
/// whose autodiff link names the slot that collects their gradient (a grad input or a Parameter).
/// Ops run by the rules are recorded on whatever tapes are still active, so grad of grad works.
TensorList backward(const Tape& tape, std::span<const Tensor> roots, std::span<const Tensor> seeds,
                    std::span<const Tensor> targets);

} // namespace gradstep

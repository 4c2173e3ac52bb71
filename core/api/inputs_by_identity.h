// PyNative gradients know an input by its Tensor object. SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace gradstep {

// Note [Inputs by identity]
// MindSpore's PyNative engine knows an input by its tensor object: it gives every argument a
// variable and stores it on the tensor itself (AutoGradCellImpl's constructor, SetGradInfoForInputs),
// so one Tensor passed at several positions is one input whose variable is the last position's.
// Every use of it flows there, and the earlier positions' gradients are zeros. The function sees
// one object at all those positions too (a hook given (x, x) gets the same tensor twice). This
// holds for a @jit function differentiated in PyNative as well (its graph is one op of the
// PyNative tape). GRAPH_MODE gives each position its own parameter: position by position there.

/// For each position, the last position holding the same Tensor (itself when none does).
std::vector<std::size_t> identityOwners(const std::vector<Value>& args);

/// One gradient request by identity through an engine that differentiates each position on its
/// own (a compiled function's): the positions sharing a requested one's Tensor are differentiated
/// too, the last of them gets the sum of their gradients and the others zeros.
GradResult differentiateByIdentity(const std::vector<Value>& args, const GradRequest& request,
                                   const std::function<GradResult(const GradRequest&)>& engine);

} // namespace gradstep

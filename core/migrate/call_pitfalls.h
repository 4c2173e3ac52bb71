// The known differences between PyTorch's and MindSpore's functional calls, looked up by the
// arguments a module's own code passed on each side (Note [Functional calls] in capture.h):
// split sizes vs output_num, norm p and dim defaults, normalize's dim and eps, clamp vs
// clip_by_value bounds, leaky_relu's slope, gelu's approximation, dropout's p / keep_prob and
// training, softmax's axis. SPDX-License-Identifier: MIT
#pragma once

#include "migrate/capture.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::migrate {

/// The functional calls of `step` that `module`'s own code or its containers' made before its
/// output number `before` was recorded (all of them when nullopt): those that computed its input
/// or it. Entries of the capture's "calls" (Note [Functional calls]).
std::vector<const Json*> callsBefore(const Capture& c, std::int64_t step, const std::string& module,
                                     std::optional<std::int64_t> before);

/// One sentence per pair of calls that compute different things, naming both calls and their
/// differing arguments ("torch.split(x, 2, dim=1) makes 2 pieces of size 2 along axis 1;
/// ops.Split(axis=1, output_num=2)(x) makes ..."). The calls of each kind are paired in the
/// order they ran; calls of the table's kinds only, the others are ignored. A call made by code
/// other than module `layer`'s own (a container's, before it) says whose ("in the model's own
/// code: ...").
std::vector<std::string> callPitfalls(const std::vector<const Json*>& torchCalls,
                                      const std::vector<const Json*>& msCalls, const std::string& layer);

} // namespace gradstep::migrate

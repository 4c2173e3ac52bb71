// API profiles: which MindSpore version's Python API a script sees. "2.x" (the default) is
// MindSpore 2.2; "1.10" lacks the top-level names MindSpore 1.10 did not have (mindspore.grad,
// value_and_grad, get_grad, jit: SEMANTICS.md §3, §4.1), so `mindspore.value_and_grad` raises
// Python's own AttributeError there while mindspore.ops.value_and_grad works, and __version__
// says "1.10.1". No Python header here. SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

namespace gradstep::python {

inline constexpr std::string_view kApiProfile2x = "2.x";
inline constexpr std::string_view kApiProfile110 = "1.10";

/// True for "2.x" and "1.10".
bool isApiProfile(std::string_view name);

} // namespace gradstep::python

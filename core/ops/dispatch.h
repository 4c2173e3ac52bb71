// Runs one op eagerly: arity check, shape rule, kernel, tape recording and observer events.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <initializer_list>

namespace gradstep {

const Attrs& noAttrs();

OutputList callOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs = noAttrs());
/// For single-output ops.
Tensor callOp1(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs = noAttrs());
inline Tensor callOp1(const OpDef& op, std::initializer_list<Tensor> inputs, const Attrs& attrs = noAttrs())
{
    return callOp1(op, std::span<const Tensor>(inputs.begin(), inputs.size()), attrs);
}

/// Throws the error type E with "for 'Op', <message>; inputs ...; attrs ..." so every op
/// reports the same way.
[[noreturn]] void throwShapeError(const OpCall& call, const std::string& message);
[[noreturn]] void throwDTypeError(const OpCall& call, const std::string& message);
[[noreturn]] void throwValueError(const OpCall& call, const std::string& message);

} // namespace gradstep

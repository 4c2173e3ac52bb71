// The overflow watchpoint's question about one node (Note [Half-precision overflow]): did a
// float16 or bfloat16 output overflow to inf from finite inputs, or round a nonzero value to zero,
// where float32 would have held it? Answered by re-running the node in float32.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/dtype.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gradstep {
struct NodeEvent;
}

namespace gradstep::debug {

struct HalfPrecisionIssue {
    enum class Kind : std::uint8_t {
        Overflow,  ///< inf in half precision, finite in float32
        Underflow, ///< zero in half precision, nonzero in float32 (below the type's smallest value)
    };

    Kind kind = Kind::Overflow;
    DType dtype = DType::Float16; ///< the output's half-precision type
    std::size_t output = 0;       ///< the first output with the issue
    std::int64_t count = 0;       ///< its elements with the issue
    std::int64_t index = 0;       ///< the first of them (flat, row-major)
    double halfValue = 0.0;       ///< what the node produced there: +-inf or 0
    double float32Value = 0.0;    ///< what the node computes there in float32
    /// Among those elements, the float32 value of largest magnitude (overflow: how far past the
    /// type's range; underflow: how large a value was lost).
    double float32Extreme = 0.0;

    /// "overflow" or "underflow".
    const char* kindName() const;
    /// "3 elements overflowed Float16 to inf; in float32 element 7 is 1.2e+05 (largest |x| 4.5e+05)".
    std::string describe() const;
};

/// The node of a finished event, checked: nullopt when no output is float16 or bfloat16, when an
/// input (for a backward node also a saved forward input) is not finite, when the node cannot be
/// re-run in float32 (a custom bprop, an update), or when nothing overflowed or underflowed.
/// Re-runs the node only when a half-precision output holds an inf or a zero. Emits no events
/// and records nothing.
std::optional<HalfPrecisionIssue> findHalfPrecisionIssue(const NodeEvent& event);

} // namespace gradstep::debug

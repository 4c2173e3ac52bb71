// What one fuzz input decodes to: a few input tensors and a sequence of registry op calls over a
// growing pool of tensors, plus how to run it (plain, under a tape, grad of grad).
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gradstep::fuzz {

/// Every tensor the fuzzer makes, and every op output it lets run, has at most this many
/// elements. Kernels with scratch space (im2col) use at most about the product of two such
/// tensors, so one call stays far below libFuzzer's memory limit and no std::bad_alloc is possible.
inline constexpr std::int64_t kMaxElements = 1024;

struct FuzzCall {
    const OpDef* op = nullptr;
    std::vector<std::uint32_t> inputs; ///< indices into the pool, taken modulo its size
    Attrs attrs;
};

enum class FuzzMode : std::uint8_t { Plain, Grad, GradOfGrad };

struct FuzzProgram {
    TensorList inputs; ///< never empty
    std::vector<FuzzCall> calls;
    FuzzMode mode = FuzzMode::Plain;
};

FuzzProgram decodeProgram(const std::uint8_t* data, std::size_t size);

} // namespace gradstep::fuzz

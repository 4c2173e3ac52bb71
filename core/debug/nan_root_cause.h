// NaN root cause: the first node, in execution order (forward, backward, update), that produced a
// NaN or Inf from finite inputs; or, when the first non-finite output had a non-finite input
// nobody recorded producing (data, a parameter, an engine-internal sum), that input.
// Works on stats alone, so dropped snapshots do not matter. SPDX-License-Identifier: MIT
#pragma once

#include "debug/node_record.h"

#include <optional>
#include <span>
#include <string>

namespace gradstep::debug {

struct NanRootCause {
    enum class Kind : std::uint8_t {
        ProducedByNode,  ///< `record` made NaN/Inf out of finite inputs
        NonFiniteInput,  ///< `record`'s input `input` was already non-finite when it arrived
    };

    Kind kind = Kind::ProducedByNode;
    RecordPtr record;
    std::size_t output = 0;            ///< the record's first non-finite output
    std::optional<std::size_t> input;  ///< NonFiniteInput: the first non-finite input
    /// "NaN/Inf first produced by Log at Net/Log (main.py:3), backward phase ...: output 0 has
    /// 1 NaN, 0 Inf; its inputs were finite: input 0 [3] Float32 min 0 max 2 ..."
    std::string message;
};

/// Records in execution order (one step, or any run of them). nullopt when every output is finite.
std::optional<NanRootCause> findNanRootCause(std::span<const RecordPtr> records);

} // namespace gradstep::debug

// Searching a step's records forwards and backwards: "where did this tensor first exceed 1e3?",
// "step back to the last node that produced a NaN". SPDX-License-Identifier: MIT
#pragma once

#include "debug/recorder.h"
#include "debug/stat_condition.h"

#include <limits>
#include <span>

namespace gradstep::debug {

/// The first record, in execution order, for which pred holds; null when none does.
RecordPtr firstRecordWhere(std::span<const RecordPtr> records, const RecordPredicate& pred);
/// The last record executed before the record `beforeSeq` (all records by default) for which
/// pred holds: where a backwards step lands.
RecordPtr lastRecordWhere(std::span<const RecordPtr> records, const RecordPredicate& pred,
                          std::uint64_t beforeSeq = std::numeric_limits<std::uint64_t>::max());

/// Some defined output satisfies the condition ("max_abs>1e3").
RecordPredicate anyOutput(const StatCondition& condition);
/// Some defined output holds NaN or Inf.
RecordPredicate producesNonFinite();
/// The record's full name matches a glob ("LeNet5/conv*/*").
RecordPredicate nameMatches(std::string glob);
/// The record produced or consumed the tensor `id`.
RecordPredicate touches(const TensorId& id);
RecordPredicate inPhase(Phase phase);
RecordPredicate allOf(RecordPredicate a, RecordPredicate b);

} // namespace gradstep::debug

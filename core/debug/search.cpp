// Record search. SPDX-License-Identifier: MIT
#include "debug/search.h"

#include "debug/breakpoints.h"

namespace gradstep::debug {

RecordPtr firstRecordWhere(std::span<const RecordPtr> records, const RecordPredicate& pred)
{
    for (const RecordPtr& r : records)
        if (pred(*r))
            return r;
    return nullptr;
}

RecordPtr lastRecordWhere(std::span<const RecordPtr> records, const RecordPredicate& pred,
                          std::uint64_t beforeSeq)
{
    for (auto it = records.rbegin(); it != records.rend(); ++it)
        if ((*it)->seq < beforeSeq && pred(**it))
            return *it;
    return nullptr;
}

RecordPredicate anyOutput(const StatCondition& condition)
{
    return [condition](const NodeRecord& r) {
        for (const TensorRecord& out : r.outputs)
            if (out.defined && condition.holds(out.stats))
                return true;
        return false;
    };
}

RecordPredicate producesNonFinite()
{
    return [](const NodeRecord& r) { return r.anyOutputNonFinite(); };
}

RecordPredicate nameMatches(std::string glob)
{
    return [glob = std::move(glob)](const NodeRecord& r) { return globMatch(glob, r.fullName); };
}

RecordPredicate touches(const TensorId& id)
{
    return [id](const NodeRecord& r) {
        for (const TensorRecord& t : r.inputs)
            if (t.defined && t.id == id)
                return true;
        for (const TensorRecord& t : r.outputs)
            if (t.defined && t.id == id)
                return true;
        return false;
    };
}

RecordPredicate inPhase(Phase phase)
{
    return [phase](const NodeRecord& r) { return r.phase == phase; };
}

RecordPredicate allOf(RecordPredicate a, RecordPredicate b)
{
    return [a = std::move(a), b = std::move(b)](const NodeRecord& r) { return a(r) && b(r); };
}

} // namespace gradstep::debug

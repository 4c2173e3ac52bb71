// SPDX-License-Identifier: MIT
#include "python/host/run_context.h"

namespace gradstep::python {

namespace {

RunContext*& installed()
{
    static RunContext* run = nullptr;
    return run;
}

} // namespace

const RunContext& currentRun()
{
    static const RunContext none;
    const RunContext* run = installed();
    return run ? *run : none;
}

RunContext* activeRun() { return installed(); }

RunContextScope::RunContextScope(RunContext& context) : m_previous(installed()) { installed() = &context; }

RunContextScope::~RunContextScope() { installed() = m_previous; }

} // namespace gradstep::python

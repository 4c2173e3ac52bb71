// Cell hooks' suspension count (cell_hooks_suspension.h). SPDX-License-Identifier: MIT
#include "nn/cell_hooks_suspension.h"

namespace gradstep {

namespace {
thread_local int t_suspensions = 0;
} // namespace

bool cellHooksSuspended() { return t_suspensions > 0; }

void suspendCellHooks() { ++t_suspensions; }

void resumeCellHooks()
{
    if (t_suspensions > 0)
        --t_suspensions;
}

CellHooksSuspension::CellHooksSuspension() { suspendCellHooks(); }

CellHooksSuspension::~CellHooksSuspension() { resumeCellHooks(); }

} // namespace gradstep

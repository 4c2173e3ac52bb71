// Where Cell hooks do not run. MindSpore runs forward pre-, forward and backward hooks in PyNative
// only: a graph-mode call, a @jit function and a graph being compiled ignore them (the Cells
// inside run bare). The Python layer opens a suspension for each of those; Cell::operator()
// asks before running a Cell's hooks. Per thread, nestable. SPDX-License-Identifier: MIT
#pragma once

namespace gradstep {

/// True while at least one CellHooksSuspension is open on this thread.
bool cellHooksSuspended();

class CellHooksSuspension {
public:
    CellHooksSuspension();
    ~CellHooksSuspension();
    CellHooksSuspension(const CellHooksSuspension&) = delete;
    CellHooksSuspension& operator=(const CellHooksSuspension&) = delete;
};

/// The same, for owners that open and close it in separate functions (a constructor and its
/// destructor): every suspendCellHooks() needs one resumeCellHooks().
void suspendCellHooks();
void resumeCellHooks();

} // namespace gradstep

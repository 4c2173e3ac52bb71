// The names in scope at the pause: one branch per user frame (outermost first), each with its
// variables' name, type and repr. SPDX-License-Identifier: MIT
#pragma once

#include "session/session_state.h"

#include <QTreeWidget>
#include <vector>

namespace gradstep::views {

class VariablesView : public QTreeWidget {
    Q_OBJECT
public:
    explicit VariablesView(QWidget* parent = nullptr);
    /// Replaces the tree; the innermost frame is expanded.
    void setStack(const std::vector<run::StackFrame>& stack);
};

} // namespace gradstep::views

// SPDX-License-Identifier: MIT
#include "views/variables_view.h"

#include <QFileInfo>
#include <QHeaderView>

namespace gradstep::views {

VariablesView::VariablesView(QWidget* parent) : QTreeWidget(parent)
{
    setHeaderLabels({tr("Name"), tr("Type"), tr("Value")});
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
}

void VariablesView::setStack(const std::vector<run::StackFrame>& stack)
{
    clear();
    QTreeWidgetItem* innermost = nullptr;
    for (const run::StackFrame& frame : stack) {
        const run::SourceSpan& span = frame.frame.span;
        auto* item = new QTreeWidgetItem(this);
        item->setText(0, QString::fromStdString(frame.frame.function));
        item->setText(1, tr("frame"));
        item->setText(2, QStringLiteral("%1:%2")
                             .arg(QFileInfo(QString::fromStdString(span.file)).fileName())
                             .arg(span.line));
        item->setFirstColumnSpanned(false);
        for (const run::Variable& v : frame.locals) {
            auto* child = new QTreeWidgetItem(item);
            child->setText(0, QString::fromStdString(v.name));
            child->setText(1, QString::fromStdString(v.type));
            const QString value = QString::fromStdString(v.value);
            child->setText(2, value.simplified());
            child->setToolTip(2, value);
        }
        innermost = item;
    }
    if (innermost)
        innermost->setExpanded(true);
}

} // namespace gradstep::views

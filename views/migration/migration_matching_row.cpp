// SPDX-License-Identifier: MIT
#include "views/migration/migration_matching_row.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace gradstep::views {

MigrationMatchingRow::MigrationMatchingRow(QWidget* parent) : QWidget(parent)
{
    m_torch = new QComboBox;
    m_ms = new QComboBox;
    for (QComboBox* box : {m_torch, m_ms}) {
        box->setEditable(true); // a name the capture does not list can still be typed
        box->setInsertPolicy(QComboBox::NoInsert);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }
    m_torch->setToolTip(tr("A PyTorch module path or parameter name"));
    m_ms->setToolTip(tr("The MindSpore Cell path or Parameter name it corresponds to"));
    m_apply = new QPushButton(tr("Match and Run Again"));
    m_clear = new QPushButton(tr("Clear Corrections"));
    m_text = new QLabel;
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Matching:")));
    layout->addWidget(m_torch, 1);
    layout->addWidget(new QLabel(QStringLiteral("↔")));
    layout->addWidget(m_ms, 1);
    layout->addWidget(m_apply);
    layout->addWidget(m_clear);
    layout->addWidget(m_text, 2);
    connect(m_apply, &QPushButton::clicked, this,
            [this] { emit matchRequested(m_torch->currentText(), m_ms->currentText()); });
    connect(m_clear, &QPushButton::clicked, this, &MigrationMatchingRow::clearRequested);
    setCorrections({});
    setRunnable(false, false);
}

void MigrationMatchingRow::setNames(const QStringList& torch, const QStringList& ms)
{
    m_torch->clear();
    m_torch->addItems(torch);
    m_ms->clear();
    m_ms->addItems(ms);
}

void MigrationMatchingRow::setCurrent(const QString& torch, const QString& ms)
{
    m_torch->setCurrentText(torch);
    m_ms->setCurrentText(ms);
}

void MigrationMatchingRow::setCorrections(const std::map<std::string, std::string>& map)
{
    QStringList shown;
    for (const auto& [t, m] : map)
        shown << QString::fromStdString(t) + QStringLiteral(" ↔ ") + QString::fromStdString(m);
    m_text->setText(shown.isEmpty() ? tr("no corrections") : tr("corrections: %1").arg(shown.join(QStringLiteral(", "))));
}

void MigrationMatchingRow::setRunnable(bool runnable, bool hasCorrections)
{
    m_apply->setEnabled(runnable);
    m_clear->setEnabled(runnable && hasCorrections);
}

} // namespace gradstep::views

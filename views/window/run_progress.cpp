// SPDX-License-Identifier: MIT
#include "views/window/run_progress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>

namespace gradstep::views {

RunProgress::RunProgress(QWidget* parent) : QWidget(parent)
{
    m_bar = new QProgressBar;
    m_bar->setFixedWidth(160);
    m_bar->setTextVisible(true);
    m_label = new QLabel;
    m_cancel = new QToolButton;
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Pause the run where it is"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    setVisible(false);
    m_timer = new QTimer(this);
    m_timer->setInterval(50);
    connect(m_timer, &QTimer::timeout, this, [this] { poll(); });
    connect(m_cancel, &QToolButton::clicked, this, [this] { cancel(); });
    m_timer->start();
}

void RunProgress::poll()
{
    const std::optional<Progress> p = m_source ? m_source() : std::nullopt;
    if (!p) {
        m_running = false;
        if (m_shown) {
            m_shown = false;
            setVisible(false);
        }
        return;
    }
    if (!m_running) {
        m_running = true;
        m_since.start();
    }
    if (!m_shown && m_since.elapsed() < kShowAfterMs)
        return;
    if (!m_shown) {
        m_shown = true;
        m_cancel->setEnabled(true);
        setVisible(true);
    }
    m_label->setText(p->text);
    m_bar->setRange(0, p->maximum);
    if (p->maximum > 0) {
        m_bar->setValue(p->value);
        m_bar->setFormat(QStringLiteral("%v / %m"));
    }
}

void RunProgress::cancel()
{
    if (!m_running)
        return;
    m_cancel->setEnabled(false);
    emit cancelRequested();
}

int RunProgress::value() const { return m_bar->value(); }
int RunProgress::maximum() const { return m_bar->maximum(); }
QString RunProgress::text() const { return m_label->text(); }

} // namespace gradstep::views

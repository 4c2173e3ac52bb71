// SPDX-License-Identifier: MIT
#include "views/window/step_tools.h"

#include "views/chain_rule.h"
#include "views/graph_view.h"
#include "views/tensor_inspector.h"
#include "views/window/main_window.h"

#include <QAction>
#include <QLabel>
#include <QSlider>
#include <QToolBar>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace gradstep::views {

namespace {

constexpr int kDefaultSpeed = 3; ///< kSpeeds[3]: 4 nodes per second

bool isPaused(const std::shared_ptr<const debug::SessionState>& state)
{
    return state && state->status == debug::SessionStatus::Paused;
}

} // namespace

StepTools::StepTools(MainWindow* window) : QObject(window), m_window(window)
{
    createToolBar();
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    connect(window, &MainWindow::stateShown, this, [this] { stateShown(); });
    connect(window->graphView(), &GraphView::nodeActivated, this, [this](int index) {
        const GraphPicture& picture = m_window->graphView()->picture();
        const debug::Session* session = m_window->bridge().session();
        if (!session || index < 0 || std::size_t(index) >= picture.nodes.size())
            return;
        const PictureNode& node = picture.nodes[std::size_t(index)];
        showChainRule(node.records.size() == 1 && node.state != NodeState::Pending
                          ? session->recorder().record(node.records.front())
                          : nullptr);
    });
}

void StepTools::createToolBar()
{
    m_bar = new QToolBar(tr("Playback"), m_window);
    m_bar->setObjectName(QStringLiteral("playbackToolbar"));
    m_window->addToolBar(Qt::BottomToolBarArea, m_bar);
    m_play = new QAction(tr("Play"), this);
    m_play->setCheckable(true);
    m_play->setShortcut(Qt::Key_F6);
    m_play->setToolTip(tr("Play (F6): step into node after node; again to stop"));
    connect(m_play, &QAction::triggered, this, [this](bool on) { on ? play() : stop(); });
    m_bar->addAction(m_play);
    m_bar->addWidget(new QLabel(tr(" speed ")));
    m_speed = new QSlider(Qt::Horizontal);
    m_speed->setRange(0, int(std::size(kSpeeds)) - 1);
    m_speed->setValue(kDefaultSpeed);
    m_speed->setFixedWidth(110);
    m_speed->setToolTip(tr("Play's speed"));
    m_bar->addWidget(m_speed);
    m_speedLabel = new QLabel;
    m_speedLabel->setMinimumWidth(m_speedLabel->fontMetrics().horizontalAdvance(QStringLiteral(" 0.5 nodes/s  ")));
    m_bar->addWidget(m_speedLabel);
    connect(m_speed, &QSlider::valueChanged, this, [this] {
        updateSpeedLabel();
        if (m_timer.isActive())
            m_timer.start(int(1000.0 / speed()));
    });
    m_bar->addSeparator();
    m_bar->addWidget(new QLabel(tr(" step timeline ")));
    m_timeline = new QSlider(Qt::Horizontal);
    m_timeline->setToolTip(tr("The nodes executed in this step: drag to travel back through the recording"));
    m_timeline->setEnabled(false);
    m_timeline->setPageStep(10);
    m_bar->addWidget(m_timeline);
    m_position = new QLabel;
    m_position->setMinimumWidth(m_position->fontMetrics().horizontalAdvance(QStringLiteral(" node 0000 / 0000 ")));
    m_bar->addWidget(m_position);
    connect(m_timeline, &QSlider::valueChanged, this, [this](int value) { travelTo(value); });
    updateSpeedLabel();
}

void StepTools::updateSpeedLabel()
{
    m_speedLabel->setText(tr("%1 nodes/s").arg(speed()));
}

double StepTools::speed() const
{
    return kSpeeds[std::size_t(m_speed->value())];
}

void StepTools::setSpeed(double nodesPerSecond)
{
    int best = 0;
    for (int i = 0; i < int(std::size(kSpeeds)); ++i)
        if (std::abs(kSpeeds[i] - nodesPerSecond) < std::abs(kSpeeds[best] - nodesPerSecond))
            best = i;
    m_speed->setValue(best);
}

void StepTools::play()
{
    m_playing = true;
    m_played = 0;
    m_play->setChecked(true);
    m_play->setText(tr("Stop"));
    if (isPaused(m_window->bridge().state()))
        tick();
}

void StepTools::stop()
{
    m_playing = false;
    m_timer.stop();
    m_play->setChecked(false);
    m_play->setText(tr("Play"));
}

void StepTools::tick()
{
    if (!m_playing)
        return;
    if (!isPaused(m_window->bridge().state()) || m_window->bridge().busy())
        return; // the next state schedules the next step
    ++m_played;
    m_window->stepInto();
}

void StepTools::stateShown()
{
    const auto state = m_window->bridge().state();
    if (!state)
        return;
    // The timeline spans the step up to the live node; a travelled-to state keeps the span.
    if (!state->timeTravel || m_records.empty())
        m_records = state->records;
    int at = -1;
    if (state->node)
        for (std::size_t i = 0; i < m_records.size(); ++i)
            if (m_records[i]->seq == state->node->seq)
                at = int(i);
    {
        const QSignalBlocker block(m_timeline);
        m_timeline->setRange(0, std::max(0, int(m_records.size()) - 1));
        m_timeline->setValue(std::max(at, 0));
        m_timeline->setEnabled(isPaused(state) && m_records.size() > 1);
    }
    m_position->setText(m_records.empty() ? QString()
                                          : tr(" node %1 / %2 ").arg(at + 1).arg(m_records.size()));
    showChainRule(state->node);
    if (m_playing) {
        const bool stepped = state->why.reason == debug::PauseReason::Command;
        if (!isPaused(state) || !stepped)
            stop(); // finished, failed, or a breakpoint/watchpoint/NaN pause: the user looks
        else
            m_timer.start(int(1000.0 / speed()));
    }
}

void StepTools::travelTo(int index)
{
    debug::Session* session = m_window->bridge().session();
    const auto state = m_window->bridge().state();
    // Travel may re-run the script: rank 0 alone cannot, while the ranks step together.
    if (!session || !isPaused(state) || index < 0 || std::size_t(index) >= m_records.size() || m_window->ranksLinked())
        return;
    stop();
    const debug::RecordPtr& target = m_records[std::size_t(index)];
    if (state->liveNode && target->seq == state->liveNode->seq)
        session->returnToLive();
    else
        session->jumpTo(target->seq);
}

void StepTools::showChainRule(const debug::RecordPtr& record)
{
    TensorInspector* inspector = m_window->inspector();
    const debug::Session* session = m_window->bridge().session();
    if (!record || !session || (record->phase != Phase::Backward && !record->hasTangents())) {
        inspector->setChainRule(std::nullopt);
        return;
    }
    const debug::Recorder& recorder = session->recorder();
    if (record->phase != Phase::Backward) { // a forward node an ops.jvp reached: forward mode
        inspector->setChainRule(forwardChainRuleOf(*record, [&recorder](const debug::TensorId& id) {
            return recorder.snapshot(id).value_or(Tensor());
        }));
        return;
    }
    const debug::RecordPtr forward = record->forwardRecord ? recorder.record(*record->forwardRecord) : nullptr;
    inspector->setChainRule(chainRuleOf(*record, forward.get(), [&recorder](const debug::TensorId& id) {
        return recorder.snapshot(id).value_or(Tensor());
    }));
    if (m_playing)
        m_window->showView(MainWindow::View::Inspector);
}

} // namespace gradstep::views

// The teaching controls in a toolbar under the views: Play steps into node after node at an
// adjustable speed until stopped (or the run pauses for another reason or ends); a timeline
// slider over the executed nodes of the step travels back and forth through the recording
// (Session::jumpTo, the live node at the right end). At a backward node the inspector's
// "Chain rule" section shows incoming gradient, local derivative and outgoing gradients.
// SPDX-License-Identifier: MIT
#pragma once

#include "session/session_state.h"

#include <QObject>
#include <QTimer>
#include <vector>

class QAction;
class QLabel;
class QSlider;
class QToolBar;

namespace gradstep::views {

class MainWindow;

class StepTools : public QObject {
    Q_OBJECT
public:
    /// Play's speeds, nodes per second, the slider's steps.
    static constexpr double kSpeeds[] = {0.5, 1, 2, 4, 8, 15, 30};

    explicit StepTools(MainWindow* window);

    void play();
    void stop();
    bool playing() const { return m_playing; }
    /// Nodes per second (the nearest speed offered).
    void setSpeed(double nodesPerSecond);
    double speed() const;
    /// Nodes stepped by Play since it last started.
    int nodesPlayed() const { return m_played; }

    QSlider* timeline() const { return m_timeline; }
    /// The records the timeline spans (the step's, up to the live node), in execution order.
    const std::vector<debug::RecordPtr>& timelineRecords() const { return m_records; }
    /// Moves the timeline to position `index` (as dragging does): jumps the session there.
    void travelTo(int index);
    QAction* playAction() const { return m_play; }
    QToolBar* toolBar() const { return m_bar; }

private:
    void createToolBar();
    void stateShown();
    void tick();
    void showChainRule(const debug::RecordPtr& record);
    void updateSpeedLabel();

    MainWindow* m_window;
    QToolBar* m_bar = nullptr;
    QAction* m_play = nullptr;
    QSlider* m_speed = nullptr;
    QLabel* m_speedLabel = nullptr;
    QSlider* m_timeline = nullptr;
    QLabel* m_position = nullptr;
    QTimer m_timer;
    std::vector<debug::RecordPtr> m_records;
    bool m_playing = false;
    int m_played = 0;
};

} // namespace gradstep::views

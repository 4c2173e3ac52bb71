// The status bar's progress for long runs: a bar, what runs and a Cancel button. It polls its
// source every 50 ms and shows only once a run has lasted 200 ms, so single steps never flash
// it. A run of N steps shows steps done of N; an open-ended run (continue, a comparison without
// its counts yet) shows a busy bar. SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QWidget>
#include <functional>
#include <optional>

class QLabel;
class QProgressBar;
class QTimer;
class QToolButton;

namespace gradstep::views {

class RunProgress : public QWidget {
    Q_OBJECT
public:
    static constexpr int kShowAfterMs = 200;

    struct Progress {
        QString text;    ///< "continuing: step 3", "compare: has_aux off (2 / 3)"
        int value = 0;
        int maximum = 0; ///< 0: busy (no known end)
    };
    /// Nullopt while nothing runs.
    using Source = std::function<std::optional<Progress>()>;

    explicit RunProgress(QWidget* parent = nullptr);
    void setSource(Source source) { m_source = std::move(source); }
    /// Polls the source now (the timer does it every 50 ms).
    void poll();
    /// What the Cancel button does.
    void cancel();
    /// True while the bar is shown.
    bool active() const { return m_shown; }
    int value() const;
    int maximum() const;
    QString text() const;

signals:
    void cancelRequested();

private:
    Source m_source;
    QTimer* m_timer = nullptr;
    QProgressBar* m_bar = nullptr;
    QLabel* m_label = nullptr;
    QToolButton* m_cancel = nullptr;
    QElapsedTimer m_since;
    bool m_running = false;
    bool m_shown = false;
};

} // namespace gradstep::views

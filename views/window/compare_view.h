// The side-by-side comparison: pick the setting to flip, run (with progress and Cancel), then per
// parameter the gradient norms A and B, the largest absolute and the relative difference and a
// verdict (differences highlighted); per side the loss, forward passes, nodes, seconds or the
// error; and charts of A's and B's gradient norms and losses side by side.
// SPDX-License-Identifier: MIT
#pragma once

#include "session/compare.h"

#include <QWidget>
#include <optional>

class QChartView;
class QComboBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QPushButton;
class QTableWidget;

namespace gradstep::views {

class CompareView : public QWidget {
    Q_OBJECT
public:
    /// The verdict next to the name, so a narrow dock still shows it.
    enum Column { Name, VerdictColumn, NormA, NormB, MaxAbsDiff, RelDiff, ColumnCount };
    /// Rows of the figures table.
    enum Figure { Setting, Loss, ForwardPasses, Nodes, Seconds, Error };

    explicit CompareView(QWidget* parent = nullptr);

    session::CompareWhat what() const;
    void setWhat(session::CompareWhat what);
    /// Training steps each side runs (the Steps box): over more than one, the Charts panel
    /// overlays both runs' curves.
    int steps() const;
    void setSteps(int steps);
    /// What both sides share besides the compared setting, e.g. "gradient API as written".
    void setBaseDescription(const QString& text);

    void setRunning(bool running);
    void setProgress(const QString& label, int run, int runs);
    void setComparison(const session::Comparison& comparison);
    /// Forgets the comparison shown (another script was opened: its results are not this one's).
    void clear();
    const std::optional<session::Comparison>& comparison() const { return m_comparison; }

    int parameterRows() const;
    QString cell(int row, Column column) const;
    /// True when the row is highlighted as a difference (close, different or missing).
    bool highlighted(int row) const;
    QString figure(Figure row, int side) const;
    int chartBars() const;
    bool isRunning() const;
    QString statusText() const;

signals:
    void compareRequested(gradstep::session::CompareWhat what);
    void cancelRequested();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    static QString idleText();
    /// The tables (left) and the charts (right), in splitters.
    QWidget* createPanes();
    void updateSides();
    void fillDiff(const session::Comparison& c);
    void fillFigures(const session::Comparison& c);
    void fillCharts(const session::Comparison& c);

    QComboBox* m_what = nullptr;
    QSpinBox* m_steps = nullptr;
    QLabel* m_sides = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QTableWidget* m_diff = nullptr;
    QTableWidget* m_figures = nullptr;
    QChartView* m_normChart = nullptr;
    QChartView* m_lossChart = nullptr;
    QString m_base;
    std::optional<session::Comparison> m_comparison;
};

/// How the window names a what-if switch ("has_aux on / off"): the Compare panel's list and the
/// toolbar's Compare... dialog.
QString compareWhatText(session::CompareWhat what);

} // namespace gradstep::views

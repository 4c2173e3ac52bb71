// Qt Charts of the finished steps: the loss per step (with the learning rate the step's optimizer
// used, on a right axis, when one was reported), and the gradient norm per parameter per step
// (parameters picked in a list; linear or log scale). Besides the current run they overlay the
// runs of a comparison over several steps, one colour per run, with the first step where they
// part marked. SPDX-License-Identifier: MIT
#pragma once

#include "debug/recorder.h"

#include <QWidget>
#include <optional>
#include <utility>
#include <vector>

class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QListWidget;

namespace gradstep::views {

/// A finished run drawn beside others: its name and its steps.
struct ChartRun {
    QString label;
    std::vector<debug::StepSummary> steps;
};

class ChartsView : public QWidget {
    Q_OBJECT
public:
    explicit ChartsView(QWidget* parent = nullptr);
    void setHistory(const std::vector<debug::StepSummary>& history);
    /// The runs of a comparison (A, B) and the step where they part; shown at once, overlaid.
    /// The Runs box switches between them and the current run; an empty list forgets them.
    void setComparedRuns(std::vector<ChartRun> runs, std::optional<std::int64_t> partsAt);
    /// True while the compared runs are drawn rather than the current run.
    bool showingComparedRuns() const;
    void showComparedRuns(bool on);
    /// The loss points drawn for the run named `label` (unsmoothed; for tests).
    std::vector<QPointF> lossPointsOf(const QString& label) const;
    /// The first divergence as drawn: the step of the vertical line, if any (for tests).
    std::optional<double> divergenceLine() const;
    void setLogScale(bool on);
    /// TensorBoard's smoothing weight in [0, 0.99]; 0 draws the steps as they are.
    void setSmoothing(double weight);
    /// Series in the loss chart (2 with smoothing: the faded steps and the smoothed line).
    int lossSeries() const;
    bool logScale() const;
    /// Points drawn in the loss chart and in all gradient-norm series (for tests).
    int lossPoints() const;
    int gradientSeries() const;
    /// Points of the learning-rate series on the loss chart's right axis (for tests).
    int learningRatePoints() const;
    /// The y range of the gradient-norm chart (for tests).
    std::pair<double, double> normAxisRange() const;

    /// The two charts as a PNG or SVG picture, or their data as CSV (step, loss, then each
    /// parameter's gradient norm), by the suffix. An error message, empty on success
    /// (charts_export.cpp).
    /// With compared runs shown: the picture of their curves, or one CSV column per run and
    /// series (step, "loss (A)", "loss (B)", then each parameter's gradient norm per run).
    QString exportTo(const QString& path) const;
    /// The CSV text exportTo writes.
    QString toCsv() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void rebuildCompared();
    void rebuildParameterList();
    /// The runs the charts draw now: the current run alone, or the compared ones.
    std::vector<ChartRun> shownRuns() const;

    std::vector<debug::StepSummary> m_history;
    std::vector<ChartRun> m_compared;
    std::optional<std::int64_t> m_partsAt;
    QComboBox* m_runs = nullptr;
    QChartView* m_lossView = nullptr;
    QChartView* m_normView = nullptr;
    QCheckBox* m_log = nullptr;
    QDoubleSpinBox* m_smoothing = nullptr;
    QListWidget* m_parameters = nullptr;
};

} // namespace gradstep::views

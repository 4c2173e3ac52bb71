// Qt Charts of the finished steps: the loss per step (with the learning rate the step's optimizer
// used, on a right axis, when one was reported), and the gradient norm, or the weight norm, per
// parameter per step (parameters picked in a list; linear or log scale). Besides the current run they overlay any
// runs ticked in the Runs list: the two sides of a comparison over several steps (with the first
// step where they part marked) and runs saved earlier, one colour per run.
// SPDX-License-Identifier: MIT
#pragma once

#include "debug/recorder.h"

#include <QWidget>
#include <functional>
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
    /// The runs of a comparison (A, B) and the step where they part; ticked at once (the current
    /// run unticked), overlaid. An empty list forgets them.
    void setComparedRuns(std::vector<ChartRun> runs, std::optional<std::int64_t> partsAt);
    /// Runs saved earlier, listed unticked (a run ticked before by its label stays ticked).
    void setSavedRuns(std::vector<ChartRun> runs);
    /// True while a compared run is drawn.
    bool showingComparedRuns() const;
    /// Ticks the compared runs and unticks the current run, or the other way round.
    void showComparedRuns(bool on);
    /// With exactly two runs ticked: draw their difference (first - second) instead of both.
    void setDifference(bool on);
    bool showsDifference() const;
    /// With two or more runs ticked: one panel per run (its loss over its gradient norms), the
    /// panels' step axes linked and their value axes on the same scale.
    void setSideBySide(bool on);
    /// Side by side: the panels' charts, per run its loss chart then its norm chart (for tests).
    int panelCount() const;
    /// A panel chart's value-axis range and title (for tests).
    std::pair<double, double> panelRange(int panel) const;
    QString panelTitle(int panel) const;
    /// Ticks or unticks a run of the list by its label ("Current run", "A: ...", a saved run's).
    bool setRunShown(const QString& label, bool shown);
    /// The labels of the ticked runs, in list order (for tests).
    QStringList shownRunLabels() const;
    /// The loss points drawn for the run named `label` (unsmoothed; for tests).
    std::vector<QPointF> lossPointsOf(const QString& label) const;
    /// The first divergence as drawn: the step of the vertical line, if any (for tests).
    std::optional<double> divergenceLine() const;
    /// The norm chart draws each parameter's weight norm (true) or gradient norm (false).
    void setWeightNorms(bool on);
    bool showsWeightNorms() const;
    /// Learning-rate series drawn on the loss chart's right axis (for tests).
    int learningRateSeries() const;
    /// What hovering step `step` of any curve shows (charts_hover.h): every drawn run's loss,
    /// learning rate and ticked parameters' norms there, and with Difference their difference.
    QString hoverText(std::int64_t step) const;

signals:
    /// The user asked to rename or delete saved run `index` (of setSavedRuns) in the Runs list.
    void savedRunRenameRequested(int index, const QString& label);
    void savedRunDeleteRequested(int index);
    /// A point of run `label`'s curve was clicked: the user wants to see that step.
    void stepClicked(const QString& label, std::int64_t step);

public:
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
    /// The loss-scale chart: shown when the current run scales its loss (amp's O2,
    /// TrainOneStepWithLossScaleCell), the scale per step on a log2 axis, overflowing steps
    /// marked, the skipped updates counted in its title.
    bool lossScaleShown() const;
    int lossScalePoints() const;
    int overflowMarks() const;
    QString lossScaleTitle() const;
    /// The loss and gradient-norm charts' titles (they say how many steps were not finite).
    QString lossTitle() const;
    QString normTitle() const;

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
    /// The ticked parameters with their colours, in list order.
    std::vector<std::pair<QString, QColor>> checkedParameters() const;
    /// The parameter list doubles as the legend (a chart legend clips beyond a few entries).
    void paintParameterSwatches();
    void rebuild();
    /// The current run's loss scale (rebuild's part; hides the chart when there is none).
    void rebuildLossScale();
    void rebuildOverlay(const std::vector<ChartRun>& runs);
    void rebuildDifference(const ChartRun& a, const ChartRun& b);
    void rebuildSideBySide(const std::vector<ChartRun>& runs);
    /// The chart views drawn now, by column (one column, or one per run side by side).
    std::vector<std::vector<QChartView*>> shownCharts() const;
    void connectClicks(QChartView* view, const std::function<QString(const QString&)>& runOf);
    /// Hovering any curve of `view` shows hoverText of the step under the cursor.
    void connectHover(QChartView* view);
    void rebuildParameterList();
    void rebuildRunList();
    void showRunMenu(const QPoint& at);
    /// The ticked runs; the current run alone means the single-run charts.
    std::vector<ChartRun> shownRuns() const;
    bool onlyCurrentShown() const;

    std::vector<debug::StepSummary> m_history;
    std::vector<ChartRun> m_compared;
    std::optional<std::int64_t> m_partsAt;
    std::vector<ChartRun> m_saved;
    QListWidget* m_runList = nullptr;
    QChartView* m_lossView = nullptr;
    QChartView* m_normView = nullptr;
    QChartView* m_scaleView = nullptr;
    QCheckBox* m_log = nullptr;
    QCheckBox* m_difference = nullptr;
    QCheckBox* m_sideBySide = nullptr;
    QWidget* m_overlayArea = nullptr; ///< the loss and norm charts
    QWidget* m_panelArea = nullptr;   ///< side by side: a loss and a norm chart per run
    std::vector<QChartView*> m_panels; ///< per run: its loss chart, then its norm chart
    QDoubleSpinBox* m_smoothing = nullptr;
    QListWidget* m_parameters = nullptr;
    QComboBox* m_normKind = nullptr; ///< gradient norms or weight norms
};

} // namespace gradstep::views

// Qt Charts of the finished steps: the loss per step (with the learning rate the step's optimizer
// used, on a right axis, when one was reported), and the gradient norm per parameter per step
// (parameters picked in a list; linear or log scale). SPDX-License-Identifier: MIT
#pragma once

#include "debug/recorder.h"

#include <QWidget>
#include <utility>
#include <vector>

class QChart;
class QChartView;
class QCheckBox;
class QDoubleSpinBox;
class QListWidget;

namespace gradstep::views {

class ChartsView : public QWidget {
    Q_OBJECT
public:
    explicit ChartsView(QWidget* parent = nullptr);
    void setHistory(const std::vector<debug::StepSummary>& history);
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
    QString exportTo(const QString& path) const;
    /// The CSV text exportTo writes.
    QString toCsv() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void rebuildParameterList();

    std::vector<debug::StepSummary> m_history;
    QChartView* m_lossView = nullptr;
    QChartView* m_normView = nullptr;
    QCheckBox* m_log = nullptr;
    QDoubleSpinBox* m_smoothing = nullptr;
    QListWidget* m_parameters = nullptr;
};

} // namespace gradstep::views

// The 32-bin histogram of a tensor's finite values (TensorStats::bins and edges), with the range
// under the bars and the non-finite counts beside it. SPDX-License-Identifier: MIT
#pragma once

#include "debug/tensor_stats.h"

#include <QWidget>

namespace gradstep::views {

class HistogramWidget : public QWidget {
    Q_OBJECT
public:
    explicit HistogramWidget(QWidget* parent = nullptr);
    void setStats(const debug::TensorStats& stats);
    QSize sizeHint() const override { return {260, 120}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    debug::TensorStats m_stats;
    bool m_has = false;
};

} // namespace gradstep::views

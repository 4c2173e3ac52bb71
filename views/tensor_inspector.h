// One node's tensors, one at a time (picked in a combo box): shape, dtype, stats, the values of
// a 2-D slice (leading indices chosen with spin boxes) as a table and a heatmap, and the 32-bin
// histogram. Tensors without a snapshot show their stats only. At a backward node a "Chain rule"
// section above says how the incoming gradient became the outgoing ones; at a forward node that
// an ops.jvp reached, how the tangents of its inputs became its output's, and a "Tangent" tab
// shows the chosen tensor's tangent beside its values (the same slice).
// SPDX-License-Identifier: MIT
#pragma once

#include "debug/tensor_stats.h"
#include "views/chain_rule.h"
#include "views/tensor_slice.h"

#include <QWidget>
#include <optional>
#include <vector>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace gradstep::views {

class HeatmapWidget;
class HistogramWidget;

struct InspectedTensor {
    QString label;             ///< "output 0", "input 1 (param conv1.weight)"
    debug::TensorStats stats;
    Tensor snapshot;           ///< undefined when none was kept
    /// Forward mode (ops.jvp): the tensor carries a tangent (undefined `tangent`: its snapshot
    /// was not kept).
    bool hasTangent = false;
    Tensor tangent = Tensor();
};

class TensorInspector : public QWidget {
    Q_OBJECT
public:
    /// The values table shows at most this many rows and columns of a slice.
    static constexpr int kMaxCells = 64;

    explicit TensorInspector(QWidget* parent = nullptr);
    /// Shows `tensors` under a heading (the node); keeps the chosen entry when it still exists.
    void setTensors(const QString& heading, std::vector<InspectedTensor> tensors);
    void clear();
    int tensorCount() const { return int(m_tensors.size()); }
    int currentIndex() const;
    void setCurrentIndex(int index);
    /// The values table (for tests).
    const QTableWidget* valuesTable() const { return m_values; }
    /// The tangent tab's table, and whether that tab is enabled (the tensor has a tangent).
    const QTableWidget* tangentTable() const { return m_tangentValues; }
    bool tangentTabEnabled() const;
    QString statText(const QString& name) const;
    /// Shows the chain-rule section (a backward node) or hides it (nullopt).
    void setChainRule(std::optional<ChainRule> rule);
    const ChainRuleView* chainRuleView() const { return m_chainRule; }
    bool chainRuleShown() const;

private:
    void showTensor(int index);
    void rebuildSliceControls(const Shape& shape);
    void showSlice();
    static void fillTable(QTableWidget* table, const Slice2D& slice);

    std::vector<InspectedTensor> m_tensors;
    QLabel* m_heading = nullptr;
    QGroupBox* m_chainBox = nullptr;
    ChainRuleView* m_chainRule = nullptr;
    QComboBox* m_choice = nullptr;
    QFormLayout* m_stats = nullptr;
    QHBoxLayout* m_sliceBar = nullptr;
    std::vector<QSpinBox*> m_sliceIndices;
    QLabel* m_sliceNote = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableWidget* m_values = nullptr;
    QTableWidget* m_tangentValues = nullptr;
    HeatmapWidget* m_heatmap = nullptr;
    HistogramWidget* m_histogram = nullptr;
};

} // namespace gradstep::views

// The window's Migration view: a PyTorch script and its MindSpore port compared layer by layer
// (`gradstep migrate` in the window). Both sides' module graphs side by side in one graph view
// (matched pairs linked, each pair coloured by its difference), the pair selected with its
// explanation in words, and both tensors with their difference in a tensor inspector. Opens on
// the first divergence; Previous / Next step through the pairs in execution order (forward
// outputs, the loss, gradients, updates) on both sides at once. Running, progress, Stop and the
// errors (no torch, a script that fails) are shown here too; the window runs the comparison.
// SPDX-License-Identifier: MIT
#pragma once

#include "migrate/compared_pairs.h"
#include "migrate/migration.h"
#include "views/tensor_inspector.h"

#include <QWidget>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace gradstep::views {

class GraphView;
class MigrationMatchingRow;

class MigrationView : public QWidget {
    Q_OBJECT
public:
    explicit MigrationView(QWidget* parent = nullptr);

    /// The two scripts compared (shown above the graphs; Run again compares them again).
    void setScripts(const QString& torchScript, const QString& msScript);
    QString torchScript() const { return m_torchScript; }
    QString msScript() const { return m_msScript; }

    void setRunning(bool running);
    /// The stage under way ("PyTorch side", ...), shown while running.
    void setStage(const QString& stage);
    /// Shows a finished comparison: the pairs, the first divergence selected; or the reason it
    /// could not compare.
    void setOutcome(std::shared_ptr<const migrate::MigrationOutcome> outcome);
    void clear();
    const std::shared_ptr<const migrate::MigrationOutcome>& outcome() const { return m_outcome; }

    /// The pairs stepped through, in execution order, and the selected one (-1: none).
    const std::vector<migrate::ComparedPair>& pairs() const { return m_pairs; }
    int currentPair() const { return m_current; }
    std::optional<std::size_t> firstDivergence() const { return m_first; }
    void selectPair(int index);
    void next();
    void previous();
    /// The training step whose pairs are shown (the first divergence's on open) and the steps
    /// both sides recorded; showStep colours and lists that step's pairs.
    std::int64_t shownStep() const { return m_step; }
    std::int64_t stepCount() const;
    void showStep(std::int64_t step);

    /// The user's corrections of the matching ({"torch name": "mindspore name"}: module paths or
    /// parameter names, as `gradstep migrate --map`), which the next run uses; kept over runs.
    const std::map<std::string, std::string>& userMap() const { return m_userMap; }
    void setUserMap(std::map<std::string, std::string> map);
    /// Adds `torch` ↔ `mindspore` to the corrections and asks for a run with them (runRequested).
    void correctMatching(const QString& torch, const QString& mindspore);
    /// The names the correction boxes offer: each side's module paths, then its parameters.
    QStringList torchNames() const;
    QStringList msNames() const;

    bool isRunning() const;
    /// The line above the graphs: progress, the verdict or why it could not compare.
    QString statusText() const;
    /// The selected pair's heading and its explanation.
    QString pairText() const;
    QString explanationText() const;
    GraphView* graphView() const { return m_graph; }
    TensorInspector* inspector() const { return m_inspector; }
    /// What the inspector shows of the selected pair (PyTorch's, MindSpore's, the difference).
    const std::vector<InspectedTensor>& shownTensors() const { return m_tensors; }
    /// The graph's node keys of the selected pair, PyTorch's first (empty when not drawn).
    QStringList selectedNodeKeys() const;

signals:
    void runRequested();
    void chooseRequested();
    void cancelRequested();

private:
    void showPair();
    void nodeClicked(int index);
    void centreOnSelection();
    void updateButtons();

    QString m_torchScript, m_msScript;
    QLabel* m_scripts = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_choose = nullptr;
    QPushButton* m_stop = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_previous = nullptr;
    QPushButton* m_next = nullptr;
    QSpinBox* m_stepBox = nullptr;
    QLabel* m_pair = nullptr;
    MigrationMatchingRow* m_matching = nullptr;
    std::map<std::string, std::string> m_userMap;
    QTextBrowser* m_explanation = nullptr;
    GraphView* m_graph = nullptr;
    TensorInspector* m_inspector = nullptr;
    std::shared_ptr<const migrate::MigrationOutcome> m_outcome;
    std::vector<migrate::ComparedPair> m_pairs;
    std::optional<std::size_t> m_first;
    std::vector<InspectedTensor> m_tensors;
    int m_current = -1;
    std::int64_t m_step = 1;
    bool m_running = false;
};

} // namespace gradstep::views

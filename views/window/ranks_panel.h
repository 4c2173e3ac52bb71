// The Ranks panel (What if > Ranks): N ranks of the open script, each under its own debugger in its
// own process, stepped together. Per rank the paused node and its location, a line saying whether
// all ranks paused at the same node (else where each one is), Step / Continue / Stop for all of
// them, a rank selector with the values of a tensor of the paused node on that rank (the tensor
// inspector), and the per-rank spread of each parameter's gradient before the all-reduce against
// the all-reduced gradient. SPDX-License-Identifier: MIT
#pragma once

#include "session/rank_controller.h"
#include "session/rank_spread.h"

#include <QWidget>
#include <optional>
#include <sys/types.h>

class QComboBox;
class QLabel;
class QPushButton;
class QStyledItemDelegate;
class QTableWidget;

namespace gradstep::views {

class RanksRunner;
class TensorInspector;

class RanksPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { RankColumn, StatusColumn, StepColumn, NodeColumn, LocationColumn };

    explicit RanksPanel(QWidget* parent = nullptr);
    ~RanksPanel() override;

    /// Starts the ranks (ending those started before). With rankZeroHere, `launched` follows once
    /// ranks 1..N-1 connected, and joinRankZero once the window's session serves as rank 0.
    void start(session::RankControllerOptions options);
    void joinRankZero();
    void stepAll();
    void stepOverAll();
    void stepOutAll();
    void continueAll();
    /// Pauses a Step or Continue under way: every rank stops, at the same node.
    void pauseAll();
    /// Ends the ranks; returns at once.
    void stopAll();
    /// Ends the ranks and waits until no rank process is left (closing the window).
    void shutdown();
    /// The rank whose tensor values are shown.
    void setRank(int rank);
    /// Shows the tensor `name` ("output 0", "input 1", "#12:0", "grad:fc1.weight") on the selected rank.
    void showTensor(const QString& name);
    /// A parameter picked in the window: its row of the gradients' spread, and its gradient on
    /// the selected rank.
    void showGradientOf(const QString& parameter);
    /// Says which rank the window's own views show (rank 0, the window's session), or none.
    void setWindowRank(std::optional<int> rank);

    bool running() const;
    bool busy() const;
    pid_t launcherPid() const;
    int ranks() const { return int(m_pauses.size()); }
    QString agreementText() const;
    QString statusText() const;
    QString rankCell(int rank, Column column) const;
    /// The gradients table: a row per parameter.
    int gradientRows() const;
    QString gradientCell(int row, int column) const;
    const std::vector<session::GradientSpread>& spread() const { return m_spread; }
    QString verdictText() const;
    TensorInspector* inspector() const { return m_inspector; }
    /// The tensor shown (empty name while none).
    const session::RankTensor& shownTensor() const { return m_tensor; }

signals:
    /// rankZeroHere: ranks 1..N-1 connected; the relay's connection (the receiver owns it) and the
    /// socket on which rank 0 is to be served.
    void launched(int relayFd, const QString& socketPath);
    /// The ranks ended (stopped, failed, died), after the panel said so.
    void ended();
    /// A command went to the ranks (true) or they answered all of them (false).
    void busyChanged(bool busy);
    /// After the panel showed a new pause, tensor, gradients or the end, and when the ranks became
    /// ready for the next command.
    void updated();

private:
    void showPauses(const std::vector<session::RankPause>& pauses);
    void showGradients(const std::vector<std::vector<session::RankGradient>>& gradients);
    void showRankTensor(const session::RankTensor& tensor);
    void showEnd(const QString& reason);
    void updateButtons();
    void fillTensorChoices();

    RanksRunner* m_runner = nullptr;
    QLabel* m_agreement = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_step = nullptr;
    QPushButton* m_continue = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_pause = nullptr;
    QLabel* m_windowRank = nullptr;
    QComboBox* m_rank = nullptr;
    QComboBox* m_tensorChoice = nullptr;
    QTableWidget* m_rankTable = nullptr;
    QTableWidget* m_gradients = nullptr;
    QLabel* m_verdict = nullptr;
    QStyledItemDelegate* m_sparkline = nullptr; ///< the across-ranks column's
    TensorInspector* m_inspector = nullptr;
    std::vector<session::RankPause> m_pauses;
    std::vector<session::GradientSpread> m_spread;
    session::RankTensor m_tensor;
    QString m_tensorName = QStringLiteral("output 0");
};

} // namespace gradstep::views
